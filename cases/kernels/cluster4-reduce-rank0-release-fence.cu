// Cluster-wide gather into rank 0 (the split-K / cluster reduction epilogue): every thread of the four CTAs of a
// cluster stores its partial into rank 0's shared slots through map_shared_rank, then the cluster barrier is
// passed with fence.release.cluster + barrier.cluster.arrive.relaxed (cuda::ptx), and rank 0's threads sum the
// four partials of their column. The fixed sibling of cluster4-reduce-rank0-relaxed-no-fence.cu.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[32] --assert 'out[0]==10 && out[1]==14 && out[31]==134'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mapa.u64 + st.u32 (generic store to the DSMEM address);
// fence.release.cluster; barrier.cluster.arrive.relaxed; barrier.cluster.wait (default .acquire); ld.shared.u32):
// * [W] (line 37, weak store into rank 0's slots) po the release fence [F] (line 38, .cluster) po the relaxed
//   arrive [A] (line 39): a release pattern rp3 on the cluster barrier's virtual location (§2.5, §4.3, A9).
//   Rank 0's wait [B] (line 40) is an acquire read of that location's generation that every arrive of the
//   generation precedes; fence (.cluster) and wait (cluster-wide) are ms, so [F] sw [B] (§2.8 rule 3) and [W]
//   is in causality order before [R] (line 41): no race (litmus CB3). The DSMEM and local addresses of one slot
//   are one location (A15).
// * Ranks 1-3 leave after their wait without touching rank 0's memory again; rank 0 reads only its own shared
//   memory: no access reaches the memory of a CTA that may have exited (§4.1).
// * Values: slot[r*32+t] = r + t + 1 (rank r, thread t); out[t] = sum over r of (r + t + 1) = 4t + 10: out[0] = 10,
//   out[1] = 14, out[31] = 134.
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
  ptx::fence(ptx::sem_release, ptx::scope_cluster);  // [F]
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);  // [A]
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
