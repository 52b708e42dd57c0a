// A TMA tensor load: thread 0 copies the 8x4 box at (x, y) of a 16x8 int32 tensor into shared memory with
// cp.async.bulk.tensor through a CUtensorMap kernel parameter, completing on an mbarrier; every thread reads its
// element of the tile after waiting on the barrier. The fixed sibling of tma-tensor-2d-read-before-wait.cu.
//
// ptxmm-launch: --grid 1 --block 32 --arg 'tmap=tensormap(int32,16x8,box=8x4)=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95' --arg out=int32[32] --arg x=4 --arg y=2 --assert 'out[0]==36 && out[7]==43 && out[8]==52 && out[31]==91'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: `.param .align 128 .b8 ..._param_0[128]`, its address
// taken with mov.b64 and cvta.param.u64, mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 128,
// cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [tile], [map, {x, y}], [bar],
// mbarrier.try_wait.parity.shared::cta.b64 — default .acquire.cta — and ld.shared.u32):
// * [L] (line 42) writes the 32 box elements (128 bytes) into the tile in the async proxy (weak, §4.7): element
//   (i0, i1) of the box at ((i1 * 8) + i0) * 4, read from tensor element (x + i0, y + i1); [R] (line 46) reads
//   them with generic loads: a conflict across proxies.
// * The copy's complete_tx (128 bytes, the whole box) is a release at .cluster scope after an implicit
//   async-to-generic proxy fence (§4.7, §2.10); with [E]'s expect_tx of 128 (line 41) the phase completes only
//   after it, and a successful [T] (line 44, acquire) synchronizes with it: every [R] is in causality order after
//   the copy's writes through that fence (proxy-preserved, §2.10 C3). No race, and [R] reads the copied values.
// * The map is a __grid_constant__ parameter nothing writes: its tensormap-proxy read orders nothing.
// * Values: tmap's tensor holds i at element i (i < 96, zero above), so out[t] = (y + t / 8) * 16 + x + t % 8:
//   out[0] = 36, out[7] = 43, out[8] = 52, out[31] = 5 * 16 + 11 = 91.
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
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
  }
  out[t] = tile[t / 8][t % 8];  // [R]
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
