// A TMA tensor store: every thread writes its element of an 8x4 int32 tile in shared memory, fences the async
// proxy and meets the others at __syncthreads; thread 0 then stores the tile as the box at (x, y) of a 16x8
// tensor with cp.async.bulk.tensor through a CUtensorMap parameter and waits for the bulk group. The fixed
// sibling of tma-tensor-store-no-proxy-fence.cu.
//
// ptxmm-launch: --grid 1 --block 32 --arg 'tmap=tensormap(int32,16x8,box=8x4)' --arg x=8 --arg y=4 --assert 'tmap[72]==1 && tmap[79]==8 && tmap[88]==9 && tmap[127]==32 && tmap[0]==0 && tmap[71]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32, fence.proxy.async.shared::cta,
// bar.sync 0, cvta.param.u64 of the map parameter, cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// [map, {x, y}], [tile], cp.async.bulk.commit_group, cp.async.bulk.wait_group 0):
// * [W] (line 31) writes tile[t] in the generic proxy; [S] (line 36) reads the whole tile in the async proxy
//   (§4.7) and writes tensor elements (x + i0, y + i1), i.e. tmap[(4 + i1) * 16 + 8 + i0], also async.
// * Each [W] is followed in program order by the thread's fence.proxy.async.shared::cta [F] (line 32), then
//   bar.sync (line 33) orders it before thread 0's [S]: the write reaches the async read through a proxy fence in
//   causality order (proxy-preserved, §2.10 C3, §4.9). No race.
// * wait_group 0 (line 38) completes the copy's writes before the kernel ends; nothing else touches the tensor.
// * Values: box element (i0, i1) holds thread i1 * 8 + i0's t + 1: tmap[72] = 1, tmap[79] = 8, tmap[88] = 9,
//   tmap[127] = 32; the elements outside the box keep their 0 (tmap[0], tmap[71]).
#include "tensormap.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void tile_store(const __grid_constant__ CUtensorMap tmap, int x, int y) {
  __shared__ alignas(128) int tile[4][8];
  const int t = threadIdx.x;
  tile[t / 8][t % 8] = t + 1;                 // [W]
  ptx::fence_proxy_async(ptx::space_shared);  // [F] the generic writes, for the async proxy
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
