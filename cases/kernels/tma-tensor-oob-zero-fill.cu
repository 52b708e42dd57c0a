// A TMA tensor load of an edge box: the 8x4 box at (12, 6) of a 16x8 int32 tensor sticks out of it by four
// columns and two rows. The threads first fill the tile with -1 (fenced for the async proxy), then thread 0
// loads the box over it; the elements outside the tensor must come back as zeros, not as the old -1.
//
// ptxmm-launch: --grid 1 --block 32 --arg 'tmap=tensormap(int32,16x8,box=8x4)=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127' --arg out=int32[32] --assert 'out[0]==108 && out[3]==111 && out[8]==124 && out[11]==127' --assert 'out[4]==0 && out[7]==0 && out[12]==0 && out[16]==0 && out[31]==0' --observe 'out[5]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[5] 0
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32 of -1, fence.proxy.async.shared::cta,
// bar.sync 0, mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 128,
// cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes, try_wait.parity):
// * [P] (line 35) writes -1 into tile[t] in the generic proxy; the proxy fence [F] (line 36) and bar.sync
//   (line 41) order it before thread 0's [L] (line 45), whose async-proxy writes of the whole box (in-bounds
//   elements copied, out-of-bounds ones zero-filled: CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) are then coherence-after
//   the -1 (§2.10 C3, §4.7). No race between [P] and [L].
// * The complete_tx counts the whole box, 128 bytes, the zero-filled elements included, so [E]'s expect_tx of
//   128 completes the phase; [T] (line 47, acquire) synchronizes with it and [R] (line 49) reads [L]'s values, not
//   the -1 (§3.6): coherence-later writes hide the earlier one.
// * Values: the box covers columns 12..19 and rows 6..9; the tensor's columns 12..15 of rows 6, 7 hold i at
//   element i: out[0] = 6 * 16 + 12 = 108, out[3] = 111, out[8] = 124, out[11] = 127; everything else is zero
//   fill (out[4..7], out[12..15], out[16..31]); out[5] has no other permitted value.
#include "tensormap.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void edge_load(const __grid_constant__ CUtensorMap tmap, int* out) {
  __shared__ alignas(128) int tile[4][8];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  tile[t / 8][t % 8] = -1;                    // [P]
  ptx::fence_proxy_async(ptx::space_shared);  // [F]
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (t == 0) {
    const int coords[2] = {12, 6};
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof(tile));  // [E]
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &tile, &tmap, coords, &bar);  // [L]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
  }
  out[t] = tile[t / 8][t % 8];  // [R]
}

int main() {
  std::vector<int> init(16 * 8);
  for (int i = 0; i < 16 * 8; ++i) init[i] = i;
  int* tensor = device_buffer<int>(16 * 8, init);
  int* out = device_buffer<int>(32);
  const CUtensorMap tmap = encode_tiled<int, 2>(tensor, {16, 8}, {8, 4});
  edge_load<<<1, 32>>>(tmap, out);
  finish();
  print("out", out, 32, {0, 3, 8, 11, 4, 7, 12, 16, 31, 5});
  return 0;
}
