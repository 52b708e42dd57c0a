// Bulk (TMA-engine) load of a tile from global into shared memory completed through an mbarrier, then read by
// every thread after its wait (seed 004, §2.3.1 "TMA -> CUDA core"; a 1-D cp.async.bulk stands for the
// tensor form, which needs a host-encoded tensor map). The fixed sibling of tma-load-read-before-wait.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3 --arg out=int32[64] --assert 'out[0]==2 && out[1]==4 && out[2]==6 && out[63]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64, fence.proxy.async.shared::cta,
// bar.sync 0, mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 256,
// cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes, mbarrier.try_wait.parity.shared::cta.b64 —
// default .acquire.cta):
// * [L] (line 45) writes the 64 tile elements in the async proxy (weak, §4.7); [R] (line 49) reads them with
//   generic loads: a conflict across proxies.
// * The copy's implicit complete_tx is a release RMW at .cluster scope, ordered after the copy's own writes
//   with an implicit async-to-generic proxy fence in between (§4.7, §2.10; `tracked` in ptx-core.cat). The
//   phase completes when thread 0's arrive ([E], line 44, expect_tx 256) and the complete_tx have both happened;
//   a successful [T] (line 47, acquire) reads the completed state, so complete_tx obs [T] and synchronizes
//   with it (head .cluster by thread 0, tail .cta in the same CTA: ms). The write reaches the implicit proxy
//   fence in its CTA and then [R] by base causality: proxy-preserved (§2.10 C3), causality order: no race, and
//   [R] reads the copied value (litmus MB7, PX10).
// * The init is published to the other threads by bar.sync; the fence.proxy.async after it follows the CUDA
//   guide (the model keeps mbarrier accesses in the generic proxy, reading A13, so it changes nothing here).
// * Values: out[t] = 2 * in[t]: 2, 4, 6, and 0 for t >= 3.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void tma_load(const int* in, int* out) {
  __shared__ alignas(128) int tile[64];
  __shared__ uint64_t bar;
  constexpr uint32_t bytes = sizeof(tile);
  const int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);                  // one arrival: thread 0's, plus the copy's transaction bytes
    ptx::fence_proxy_async(ptx::space_shared);    // the initialized barrier, for the async proxy (CUDA guide)
  }
  __syncthreads();

  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);  // [E]
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, in, bytes, &bar);  // [L]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T] every thread waits for the tile
  }
  out[t] = 2 * tile[t];  // [R]
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3});
  int* out = device_buffer<int>(64);
  tma_load<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 1, 2, 63});
  return 0;
}
