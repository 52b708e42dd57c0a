// The cluster push exchange with a relaxed cluster arrive preceded by fence.release.cluster (seed 004,
// §2.1.2 "barrier.relaxed.cluster.arrive+wait + fence.cluster"): the fence supplies the release the relaxed
// arrive lacks. The fixed sibling of cluster-dsmem-relaxed-arrive.cu.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[128] --assert 'out[0]==2000 && out[63]==2063 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: fence.release.cluster; barrier.cluster.arrive.relaxed;
// barrier.cluster.wait):
// * ptxmm models the cluster barrier as a strong RMW (arrive) and read (wait, .acquire by default) of a
//   per-cluster location (reading A9), so [F] (line 35, fence.release.cluster) po the relaxed arrive is
//   release pattern rp3 and the wait ends acquire pattern ap1 (§2.5). The arrives of all 128 threads are ms
//   (.cluster) RMWs the wait observes (§2.6); the fence and the wait are .cluster in one cluster: ms, so the
//   fence sw the wait (§2.8 rule 4). [W] (line 34) po [F] sw wait po [R] (line 38): causality order (§2.10
//   C1), no race (litmus CB3, §7.7). The default acquire wait needs no extra fence, as the seed says.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(2, 1, 1) push_exchange(int* out) {
  __shared__ int recv[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;

  cluster.sync();  // the peer block is running
  int* peer_recv = cluster.map_shared_rank(recv, rank ^ 1);
  peer_recv[t] = 1000 * (rank + 1) + t;               // [W]
  ptx::fence(ptx::sem_release, ptx::scope_cluster);   // [F]
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);
  ptx::barrier_cluster_wait();
  out[rank * 64 + t] = recv[t];  // [R]
}

int main() {
  int* out = device_buffer<int>(128);
  push_exchange<<<2, 64>>>(out);
  finish();
  print("out", out, 128, {0, 63, 64, 127});
  return 0;
}
