// Cooperative groups block sum with cg::reduce per 32-thread tile, but WITHOUT block.sync() between the tiles'
// shared-memory stores and thread 0's reads (the bug; the fix is cg-reduce-block-sum.cu): thread 0 may read a
// tile sum before that tile's lane 0 has stored it. Three CTAs of 128 threads.
//
// ptxmm-launch: --grid 3 --block 128 --arg in=int32[384]=1,2,3,4,5,6,7,8,9,10 --arg out=int32[3]
// ptxmm-expect: race 30 34 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: redux.sync.add.s32 -1, [S] st.shared.u32 by lane 0 of each
// tile, no barrier, [T] ld.shared.u32 by thread 0):
// * Lane 0 of tile w (thread 32w, w = 1..3) stores sums[w] ([S], line 30) and thread 0 reads it ([T], line 34);
//   the redux.sync of tile 0 synchronises only tile 0's lanes' registers and has no memory ordering with other
//   tiles (§2.1): nothing orders the store of thread 32w before the read of thread 0 (§2.8). Weak store, weak
//   load, same address, different threads: a data race (§2.4), no-synchronisation. (sums[0] is thread 0's own.)
// * No assertion: thread 0 may add uninitialised shared memory.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <int TILES>
__global__ void block_sum(const int* in, int* out) {
  __shared__ int sums[TILES];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int v = in[blockIdx.x * block.size() + block.thread_rank()];
  const int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;  // [S]
  // BUG: no block.sync() here: the other tiles' sums may not be stored yet
  if (block.thread_rank() == 0) {
    int total = 0;
    for (int w = 0; w < TILES; ++w) total += sums[w];  // [T]
    out[blockIdx.x] = total;
  }
}

int main() {
  int* in = device_buffer<int>(384, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  int* out = device_buffer<int>(3);
  block_sum<4><<<3, 128>>>(in, out);
  finish();
  print("out", out, 3, {0, 1, 2});
  return 0;
}
