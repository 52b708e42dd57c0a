// Warp-specialized epilogue (seed 004, §2.2.1 "CUDA core -> TMA"): the producer warp writes a shared tile,
// fences the async proxy and arrives on an mbarrier; thread 0 of the storer warp waits on the mbarrier and
// stores the tile to global memory with a bulk (TMA-engine) copy.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==7 && out[31]==100'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared; fence.proxy.async.shared::cta;
// mbarrier.arrive.shared.b64 (default .release.cta); mbarrier.try_wait.parity.shared::cta.b64 (default
// .acquire.cta); cp.async.bulk.global.shared::cta.bulk_group; commit_group; wait_group.read 0):
// * [W] (line 35) writes tile[p] (generic); the copy [S] (line 41) reads the tile in the async proxy.
// * [W] po [PF] (line 36, fence.proxy.async.shared::cta) po [A] (line 37, release arrive: rp1). Thread 0's
//   successful wait [T] (line 39, acquire) reads the completed phase: the 32 arrives are ms RMWs linearized, so
//   each obs the wait and sw it (§2.6, §2.8 rule 4). The copy is issued po-after [T] and its read is
//   issue-ordered after that (§2.9 iss). The proxy fence lies on this path in the CTA of the async access, and
//   covers shared memory: proxy-preserved (§2.10 C4, reading A1): no race, and the copy reads the tile.
// * Values: out[p] = tile[p] = 7 + 3p: out[0] = 7, out[31] = 100.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void epilogue(int* out) {
  __shared__ alignas(128) int tile[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 32);  // the 32 producer threads arrive
  __syncthreads();

  if (t >= 32) {  // producer warp: the epilogue math
    const int p = t - 32;
    tile[p] = 7 + 3 * p;                        // [W]
    ptx::fence_proxy_async(ptx::space_shared);  // [PF] the tile, for the async proxy
    (void)ptx::mbarrier_arrive(&bar);           // [A]
  } else if (t == 0) {  // storer: one thread of warp 0 drives the bulk copy
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
    }
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, sizeof(tile));  // [S]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

int main() {
  int* out = device_buffer<int>(32);
  epilogue<<<1, 64>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
