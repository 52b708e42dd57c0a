// Cooperative groups block sum: cg::tiled_partition<32> tiles reduce with cg::reduce(tile, v, cg::plus<int>())
// (redux.sync on sm_90 for int), lane 0 of each tile stores the tile's sum in shared memory, block.sync(), and
// thread 0 adds the four tile sums (the fix; without block.sync() it is cg-reduce-no-block-sync.cu). Three CTAs.
//
// ptxmm-launch: --grid 3 --block 128 --arg in=int32[384]=1,2,3,4,5,6,7,8,9,10 --arg out=int32[3] --assert 'out[0]==55 && out[1]==0 && out[2]==0' --observe 'out[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[0] 55
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32, redux.sync.add.s32 -1, [S]
// st.shared.u32 by lane 0 of each tile, bar.sync 0 (block.sync()), [T] four ld.shared.u32 by thread 0, [O]
// st.global.u32):
// * Per CTA: tile w (threads 32w..32w+31) sums its values with redux.sync (a register exchange, §2.1; every lane
//   of the full mask takes part). Lane 0 stores sums[w] ([S], line 34); thread 0 reads sums[0..3] ([T], line 38)
//   after the `bar.sync 0` (line 35) that all 128 threads execute (§4.4): each [S] po bar sw bar po [T] (§2.8 rule
//   2, causality §2.10 C1). No other conflicting pair (out[c] written once by thread 0 of CTA c, `in` only read):
//   race-free (§2.4).
// * Values: CTA 0's tile 0 holds 1..10 and zeros: 55; its other tiles and CTAs 1 and 2 hold zeros: out = 55, 0, 0.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <int TILES>
__global__ void block_sum(const int* in, int* out) {
  __shared__ int sums[TILES];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int v = in[blockIdx.x * block.size() + block.thread_rank()];  // [L]
  const int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = s;  // [S]
  block.sync();  // [B]
  if (block.thread_rank() == 0) {
    int total = 0;
    for (int w = 0; w < TILES; ++w) total += sums[w];  // [T]
    out[blockIdx.x] = total;  // [O]
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
