// Bug: the cluster gather of cluster4-reduce-rank0-release-fence.cu with barrier.cluster.arrive.relaxed and no
// release fence before it (the relaxed arrive is meant for barriers that publish nothing): rank 0 may sum its
// slots before the peers' DSMEM stores are visible.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[32] --assert 'out[0]==10 && out[1]==14 && out[31]==134'
// ptxmm-expect: race 32 35 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mapa.u64 + st.u32; barrier.cluster.arrive.relaxed;
// barrier.cluster.wait; ld.shared.u32):
// * A relaxed arrive [A] (line 33) heads no release pattern, and no release fence precedes it: it publishes
//   nothing (§4.3, A9; litmus CB2). Rank 0's wait [B] (line 34) still waits, but nothing orders a peer's [W]
//   (line 32) before rank 0's [R] (line 35): weak store, weak load, generic, unordered — a race, kind
//   no-synchronisation. Rank 0's own slots are written po before its reads: only peers' stores race, on the
//   same source lines.
// * Assertion: [R] may read slots not yet written (no defined initial value): out[0]==10 can fail.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(4, 1, 1) gather_rank0(int* out) {
  __shared__ int slots[4 * 32];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  int* root = cluster.map_shared_rank(slots, 0);
  root[rank * 32 + t] = static_cast<int>(rank) + t + 1;  // [W]
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);  // [A] BUG: relaxed arrive, no fence before it
  ptx::barrier_cluster_wait();  // [B]
  if (rank == 0) out[t] = slots[t] + slots[32 + t] + slots[64 + t] + slots[96 + t];  // [R]
}

int main() {
  int* out = device_buffer<int>(32);
  gather_rank0<<<4, 32>>>(out);
  finish();
  print("out", out, 32, {0, 1, 31});
  return 0;
}
