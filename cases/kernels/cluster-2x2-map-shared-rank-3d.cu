// A 2x2 cluster (__cluster_dims__(2, 2, 1)) of blocks with a 3-D thread shape (4x2x2): each block fills its
// shared cells, cg::this_cluster().sync(), reads the diagonally opposite block's cells in reverse order through
// cluster.map_shared_rank, and syncs the cluster again before leaving. The fixed sibling of
// cluster-2x2-arrive-before-write-3d.cu.
//
// ptxmm-launch: --grid 2,2 --block 4,2,2 --cluster 2,2 --arg out=int32[64] --assert 'out[0]==46 && out[15]==31 && out[16]==36 && out[63]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: %cluster_ctarank; %tid.x/.y/.z; st.shared.u32;
// barrier.cluster.arrive + barrier.cluster.wait (cluster.sync(), default .release / .acquire, §4.3);
// mapa.u64 + generic ld.u32 (map_shared_rank)):
// * [W] (line 32, weak store of a cell) po the release arrive of [E] (line 33); the diagonal block's acquire wait of the
//   same generation is sw-after it (§2.8 rule 3) and its [R] (line 35, weak generic load of the cell through the
//   mapa address, the same location as the owner's, A15) is po-after: causality order (§2.10 C1), no race.
// * [X] (line 36, second cluster.sync()) orders every [R] before the owning block's exit (§4.1).
// * Values: the cluster is the whole grid, so block (x, y) has rank r = x + 2y; cell[t] = 10 r + t + 1 with
//   t = x + 4 (y + 2 z) the linear thread index; out[16 r + t] = the cell 15 - t of block r ^ 3:
//   out[0] = 46, out[15] = 31, out[16] = 36, out[63] = 1.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 2, 1) diagonal_exchange(int* out) {
  __shared__ int cell[16];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x + 4 * (threadIdx.y + 2 * threadIdx.z);
  cell[t] = 10 * rank + t + 1;  // [W]
  cluster.sync();               // [E]
  const int* peer = cluster.map_shared_rank(cell, rank ^ 3);
  const int v = peer[15 - t];   // [R]
  cluster.sync();               // [X]
  out[16 * rank + t] = v;
}

int main() {
  int* out = device_buffer<int>(64);
  diagonal_exchange<<<dim3(2, 2), dim3(4, 2, 2)>>>(out);
  finish();
  print("out", out, 64, {0, 15, 16, 63});
  return 0;
}
