// The bulk (TMA-engine) load of tma-load-mbarrier.cu with the tile read before the mbarrier wait (a "prefetch"
// into registers hoisted above the wait): the generic loads race with the copy's async-proxy writes.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3 --arg out=int32[64] --assert 'out[0]==2 && out[1]==4 && out[2]==6 && out[63]==0'
// ptxmm-expect: race 37 39 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in tma-load-mbarrier.cu, with the ld.shared before the
// try_wait loop):
// * [L] (line 37) writes tile[t] in the async proxy; [R] (line 39) reads it with a generic load before the
//   thread has observed the phase completion. Nothing orders the copy's write before [R]: the copy's accesses
//   are ordered only after thread 0's earlier instructions (issue order) and before its complete_tx (§4.7);
//   [R] is po-before the acquiring wait, so no synchronization reaches it (thread 0's own [R] is after the
//   issue, which orders nothing after the async write either). Different proxies and no causality: a race,
//   kind different-proxies (ptx-core.cat race-proxy takes precedence whenever the proxies differ).
// * [R] may read the tile's initial contents instead of 1, 2, 3 (§3.6): out[1] == 4 can fail.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void tma_load(const int* in, int* out) {
  __shared__ alignas(128) int tile[64];
  __shared__ uint64_t bar;
  constexpr uint32_t bytes = sizeof(tile);
  const int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();

  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
    ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, in, bytes, &bar);  // [L]
  }
  const int early = tile[t];  // [R] bug: read before the wait
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  out[t] = 2 * early;
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3});
  int* out = device_buffer<int>(64);
  tma_load<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 1, 2, 63});
  return 0;
}
