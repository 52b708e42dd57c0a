// Cooperative groups: a 16-thread tile (cg::tiled_partition<16>) syncs, then each thread reads the element of its
// partner 16 lanes away — which is in the *other* tile of the same warp, so tile.sync() does not order it (the
// fix, a 32-thread tile, is tiled-partition32-warp-sync.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3 --arg out=int32[64] --assert 'out[16]==2 && out[17]==4 && out[18]==6'
// ptxmm-expect: race 28 30 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, tile.sync() = bar.warp.sync with
// the tile's 16-lane mask (0x0000ffff or 0xffff0000, computed from the lane id), [R] ld.shared.u32):
// * Thread t stores s[t] ([S], line 28) and, after tile.sync() (line 29), reads s[t ^ 16] ([R], line 30), stored by
//   thread t ^ 16: same warp, other 16-lane tile. bar.warp.sync orders only the lanes in its mask (§4.5: sw between
//   the participants of one instance), and the two tiles execute different instances (different masks). Nothing
//   else orders the two threads; both accesses are weak: a data race, no-synchronisation (§2.4).
// * [R] of thread 16 may read s[0] before thread 0 stored in[0] * 2 = 2 (§3.6; shared memory's initial contents are
//   not 2): out[16] == 2 can fail.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void exchange(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
  s[t] = in[t] * 2;  // [S]
  tile.sync();
  out[t] = s[t ^ 16];  // [R] bug: lane t ^ 16 is in the other 16-thread tile
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3});
  int* out = device_buffer<int>(64);
  exchange<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {16, 17, 18});
  return 0;
}
