// The TMA tensor load of tma-tensor-2d-load.cu with the tile read before the mbarrier wait: every thread reads its
// element of the tile while the copy may still be writing it, and only then waits (so no thread leaves while the
// copy is in flight).
//
// ptxmm-launch: --grid 1 --block 32 --arg 'tmap=tensormap(int32,16x8,box=8x4)=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95' --arg out=int32[32] --arg x=4 --arg y=2 --assert 'out[0]==36 && out[7]==43 && out[8]==52 && out[31]==91'
// ptxmm-expect: race 35 37 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in tma-tensor-2d-load.cu, the ld.shared.u32 [R] before the
// try_wait.parity loop [T]):
// * [L] (line 35) writes the box into the tile in the async proxy (weak, §4.7); [R] (line 37) reads it with
//   generic loads. Nothing orders [L]'s writes before [R]: the complete_tx and the acquire [T] that would
//   synchronize with it come after [R] in program order, and thread 0's po-earlier [E] does not order the
//   copy's later writes (§2.5). A conflict of two proxies in no causality order: a race, kind different-proxies.
// * [R] may read the tile before the copy wrote it (§3.6): 0 instead of 36, so out[0]==36 may fail.
#include "tensormap.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void tile_load(const __grid_constant__ CUtensorMap tmap, int* out, int x, int y) {
  __shared__ alignas(128) int tile[4][8];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);  // the initialized barrier, for the async proxy (CUDA guide)
  }
  __syncthreads();
  if (t == 0) {
    const int coords[2] = {x, y};
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));  // [E]
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile, &tmap, coords, &bar);  // [L]
  }
  out[t] = tile[t / 8][t % 8];  // [R] before the wait: the bug
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
  }
}

int main() {
  std::vector<int> init(16 * 8, 0);
  for (int i = 0; i < 96; ++i) init[i] = i;
  int* tensor = device_buffer<int>(16 * 8, init);
  int* out = device_buffer<int>(32);
  const CUtensorMap tmap = encode_tiled<int, 2>(tensor, {16, 8}, {8, 4});
  tile_load<<<1, 32>>>(tmap, out, 4, 2);
  finish();
  print("out", out, 32, {0, 7, 8, 31});
  return 0;
}
