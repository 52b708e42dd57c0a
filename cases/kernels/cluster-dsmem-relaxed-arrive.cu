// The cluster push exchange of cluster-dsmem-barrier.cu with the middle cluster barrier's arrive made relaxed
// (barrier.cluster.arrive.relaxed, the cheap arrive CUTLASS uses where nothing needs publishing): the wait
// still waits for everyone, but the pushed data is not published.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[128] --assert 'out[0]==2000 && out[63]==2063 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race 32 35 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: barrier.cluster.arrive.relaxed; barrier.cluster.wait):
// * A relaxed arrive gives no ordering for the arriving thread's prior accesses (§4.3): only release
//   arrives synchronize with the acquire wait (§2.8 rule 3, reading A9), and no release fence precedes this
//   one. So [W] (line 32, generic weak store into the peer's buffer) and [R] (line 35, the peer's local load)
//   are not in causality order: weak, different threads, a race, no-synchronisation (litmus CB2, §7.7).
// * [R] may read the buffer's initial contents instead of the pushed value (§3.6): the assertion can fail.
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
  peer_recv[t] = 1000 * (rank + 1) + t;      // [W]
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);  // bug: relaxed arrive publishes nothing
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
