// Warp collectives whose results are values, not memory: __reduce_add_sync / __reduce_max_sync (redux.sync) give
// every lane the warp's sum and maximum, __match_any_sync (match.any.sync) the lanes holding the same key; lane 0
// stores the warp's results and every thread its peer mask. 2 CTAs of 64 threads (four warps).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=1,2,3,4,5,6,7,8 --arg sums=int32[4] --arg maxs=uint32[4] --arg peers=uint32[128] --assert 'sums[0]==36 && sums[1]==0 && sums[3]==0 && maxs[0]==8 && maxs[2]==0 && peers[0]==85 && peers[1]==4294967210 && peers[8]==4294967210 && peers[32]==4294967295'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32, redux.sync.add.s32,
// redux.sync.max.u32, match.any.sync.b32 (all with mask -1), [S]/[M] st.global.u32 by lane 0, [P] st.global.u32):
// * Memory: `in` is only read; sums[w] and maxs[w] are stored once, by lane 0 of warp w ([S], line 25; [M], line 26);
//   peers[g] once, by thread g ([P], line 34). No two accesses of different threads conflict: race-free (§2.4). The
//   collectives exchange registers between the lanes of one warp; they are not memory events (§2.1).
// * Values (PTX ISA redux.sync / match.sync, every lane of the full mask participating): warp 0 of CTA 0 holds
//   v = 1..8, 0,...: sum 36, max 8 (as unsigned); the other three warps hold zeros: sum 0, max 0. The key is v & 1:
//   lanes 0,2,4,6 (v odd) have mask 0x55 = 85; lanes 1,3,5,7 and 8..31 (v even) 0xFFFFFFAA = 4294967210; every
//   lane of a zero warp 0xFFFFFFFF.
#include "host.cuh"

__device__ void warp_stats(int v, int* sums, unsigned* maxs, int warp) {
  const int sum = __reduce_add_sync(0xffffffffu, v);
  const unsigned mx = __reduce_max_sync(0xffffffffu, static_cast<unsigned>(v));
  if ((threadIdx.x & 31) == 0) {
    sums[warp] = sum;  // [S]
    maxs[warp] = mx;   // [M]
  }
}

__global__ void warp_collectives(const int* in, int* sums, unsigned* maxs, unsigned* peers) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[g];  // [L]
  warp_stats(v, sums, maxs, g / 32);
  peers[g] = __match_any_sync(0xffffffffu, v & 1);  // [P]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8});
  int* sums = device_buffer<int>(4);
  unsigned* maxs = device_buffer<unsigned>(4);
  unsigned* peers = device_buffer<unsigned>(128);
  warp_collectives<<<2, 64>>>(in, sums, maxs, peers);
  finish();
  print("sums", sums, 4, {0, 1, 3});
  print("maxs", maxs, 4, {0, 2});
  print("peers", peers, 128, {0, 1, 8, 32});
  return 0;
}
