// The TMA tensor store of tma-tensor-store-proxy-fence.cu without fence.proxy.async.shared::cta: the tile is
// written by generic stores and read by the copy in the async proxy with only __syncthreads between them.
//
// ptxmm-launch: --grid 1 --block 32 --arg 'tmap=tensormap(int32,16x8,box=8x4)' --arg x=8 --arg y=4 --assert 'tmap[72]==1 && tmap[79]==8 && tmap[88]==9 && tmap[127]==32 && tmap[0]==0 && tmap[71]==0'
// ptxmm-expect: race 25 29 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in tma-tensor-store-proxy-fence.cu without the
// fence.proxy.async.shared::cta):
// * [W] (line 25) writes tile[t] in the generic proxy; [S] (line 29) reads the tile in the async proxy (§4.7).
//   bar.sync orders [W] before [S] in causality order, but no proxy fence lies on the way: the order does not
//   reach across proxies (§2.10 C3, §4.9). A race, kind different-proxies (for every thread's element; thread
//   0's own [W] is in program order before [S], still without a proxy fence).
// * [S] may read a tile element before its generic write (§3.6): tmap[72]==1 may fail.
#include "tensormap.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void tile_store(const __grid_constant__ CUtensorMap tmap, int x, int y) {
  __shared__ alignas(128) int tile[4][8];
  const int t = threadIdx.x;
  tile[t / 8][t % 8] = t + 1;                 // [W]
  __syncthreads();
  if (t == 0) {
    const int coords[2] = {x, y};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tmap, coords, &tile);  // [S]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}

int main() {
  int* tensor = device_buffer<int>(16 * 8);
  const CUtensorMap tmap = encode_tiled<int, 2>(tensor, {16, 8}, {8, 4});
  tile_store<<<1, 32>>>(tmap, 8, 4);
  finish();
  print("tmap", tensor, 16 * 8, {72, 79, 88, 127, 0, 71});
  return 0;
}
