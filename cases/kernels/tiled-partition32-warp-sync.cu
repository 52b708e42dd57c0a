// Cooperative groups: the fix of tiled-partition16-cross-tile.cu — the tile that syncs is the whole warp
// (cg::tiled_partition<32>), so the partner 16 lanes away is inside it.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3 --arg out=int32[64] --assert 'out[16]==2 && out[17]==4 && out[18]==6'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, tile.sync() of a 32-thread tile =
// bar.warp.sync -1, [R] ld.shared.u32):
// * Thread t stores s[t] ([S], line 27) and, after tile.sync() (line 28), reads s[t ^ 16] ([R], line 29), stored by
//   thread t ^ 16 of the same warp. All 32 lanes execute the same bar.warp.sync -1 instance: sw from every
//   participant's arrive to every participant's wait (§4.5, reading A8), so [S] of t ^ 16 is in causality order
//   before [R] of t (§2.10 C1): no race. Warps never read each other's slots; out[t] is written once.
// * [R] reads the one store it is ordered after (§3.6): out[t] = 2 * in[t ^ 16]; out[16] = 2, out[17] = 4,
//   out[18] = 6.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void exchange(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  s[t] = in[t] * 2;  // [S]
  tile.sync();
  out[t] = s[t ^ 16];  // [R] lane t ^ 16 is in the same 32-thread tile
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3});
  int* out = device_buffer<int>(64);
  exchange<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {16, 17, 18});
  return 0;
}
