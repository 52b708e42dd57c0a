// The 2x2-cluster exchange of cluster-2x2-map-shared-rank-3d.cu with the first cluster.sync() split into
// cluster.barrier_arrive() / barrier_wait() (to overlap the fill with the barrier) and the arrive placed BEFORE
// the fill: the release arrive publishes nothing the block writes after it.
//
// ptxmm-launch: --grid 2,2 --block 4,2,2 --cluster 2,2 --arg out=int32[64] --assert 'out[0]==46'
// ptxmm-expect: race 28 31 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in cluster-2x2-map-shared-rank-3d.cu with barrier.cluster.arrive
// before the st.shared and barrier.cluster.wait after it):
// * A release arrive orders the accesses po-BEFORE it (§4.3, §2.5); [W] (line 28) is po-after the arrive [E]
//   (line 27), so the diagonal block's acquire wait says nothing about it. [W] and the peer's [R] (line 31, weak
//   generic load through the mapa address) are unordered: a race, kind no-synchronisation.
// * [R] may read the cell's initial contents (§3.6): out[0] == 46 is not guaranteed.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 2, 1) diagonal_exchange(int* out) {
  __shared__ int cell[16];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x + 4 * (threadIdx.y + 2 * threadIdx.z);
  cluster.barrier_arrive();     // [E] bug: arrives before the cells are written
  cell[t] = 10 * rank + t + 1;  // [W]
  cluster.barrier_wait();
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
