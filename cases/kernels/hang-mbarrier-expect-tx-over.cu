// Bug: the split-copy kernel of mbarrier-expect-tx-split-copy.cu announcing 512 bytes with expect_tx (the size
// of a stage counted twice) while its two copies bring 256: tx never returns to 0, the phase never completes
// and every waiting thread spins.
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[128]=1,2,3 --arg out=int32[64]
// ptxmm-expect: race-free
// ptxmm-expect: hang 38
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, expect_tx of 512):
// * [E] (line 34) sets pend = 0, tx = 512; the complete_tx of [LL] (line 35) and [LH] (line 36) subtract
//   128 each: tx = 256 after both, never 0 (nothing else touches the barrier). The phase never completes (§4.2),
//   so try_wait.parity 0 ([T], line 38) is false in every poll of every execution: all 32 threads of each
//   block hang at [T].
// * No race: [R] (line 40) is never reached; the copies write disjoint halves.
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
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 4 * kHalf);  // [E] BUG: announces 512 bytes, 256 arrive
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
