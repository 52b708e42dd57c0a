// Bug: the split-copy kernel of mbarrier-expect-tx-split-copy.cu announcing only 128 of the 256 bytes with
// expect_tx: whichever half lands first completes the phase, and the waiting warp reads the other half while its
// copy may still be in flight (its complete_tx falls into the next phase).
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[128]=1,2,3 --arg out=int32[64] --assert 'out[0]==1 && out[1]==2 && out[2]==3 && out[32]==0'
// ptxmm-expect: race 40 45 different-proxies
// ptxmm-expect: race 41 45 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, expect_tx of 128):
// * [E] (line 39) sets pend = 0, tx = 128. The first complete_tx (of [LL], line 40, or of [LH], line 41; the
//   two copies are unordered, §4.7) takes tx to 0 with pend = 0: phase 0 completes (§4.2 completion check).
//   The other copy's complete_tx comes after the completion (it reads the re-armed state) — a true [T]
//   (line 43) need not observe it.
// * In the execution where [LH] lands first, nothing orders [LL]'s async writes before the generic reads [R]
//   (line 45) of tile[0..31]: a race between proxies, kind different-proxies; symmetrically [LH] with the
//   reads of tile[32..63] when [LL] lands first.
// * Assertion: [R] may read a half not yet written (shared memory has no defined initial value): out[0]==1
//   can fail.
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
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, kHalf);  // [E] BUG: announces one half only
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
