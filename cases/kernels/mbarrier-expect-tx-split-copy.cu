// A tile loaded by two bulk copies of 128 bytes each (two halves, as a loader splits a tile that crosses a
// boundary) completing on one mbarrier, whose single arrival announces both with expect_tx of the whole 256
// bytes; one warp per block waits and reads both halves. Two blocks, one barrier each. The fixed sibling of
// mbarrier-expect-tx-short.cu and hang-mbarrier-expect-tx-over.cu.
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[128]=1,2,3 --arg out=int32[64] --assert 'out[0]==1 && out[1]==2 && out[2]==3 && out[32]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 [..], 1;
// mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 256; two
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes of 128; mbarrier.try_wait.parity.shared::cta.b64):
// * [E] (line 40) is the one expected arrival and adds 256 to tx; [LL] (line 41) and [LH] (line 42) each
//   subtract 128 by their implicit complete_tx (release .cluster, thread 0's, §4.7). pend = 0 and tx = 0 hold
//   only after both copies completed (the completion check runs after every arrive-on / complete_tx, §4.2), so a
//   true [T] (line 44) observes both complete_tx RMWs (the chain of RMWs on the barrier word, §2.6).
// * Each half's async write reaches [R] (line 46) by the tracked path (adone, implicit proxy fence, complete_tx,
//   obs, po; §4.7, MB7): no race; [R] reads the copied values.
// * The init is thread 0's own, po before its [E]; the other threads' waits see it through [S] (line 38).
// * Values: out[b*32+t] = tile[t] + tile[t+32] = in[b*64+t] + in[b*64+t+32]: out[0..2] = 1, 2, 3, out[32] = in[64] + in[96] = 0.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void split_copy(const int* in, int* out) {
  __shared__ alignas(128) int tile[64];
  __shared__ uint64_t bar;
  constexpr uint32_t kHalf = sizeof(tile) / 2;
  const int t = threadIdx.x;
  const int* src = in + blockIdx.x * 64;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();  // [S]
  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 2 * kHalf);  // [E]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, src, kHalf, &bar);  // [LL]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile + 32, src + 32, kHalf, &bar);  // [LH]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
  }
  out[blockIdx.x * 32 + t] = tile[t] + tile[t + 32];  // [R]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3});
  int* out = device_buffer<int>(64);
  split_copy<<<2, 32>>>(in, out);
  finish();
  print("out", out, 64, {0, 1, 2, 32});
  return 0;
}
