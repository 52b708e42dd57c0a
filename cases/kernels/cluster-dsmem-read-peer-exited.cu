// Bug: block 1 of a 2-CTA cluster reads a table from block 0's shared memory (map_shared_rank) after a
// cluster.sync(), but nothing keeps block 0 alive until the reads are done: block 0 returns right after the
// barrier, and a DSMEM access to a CTA that has exited is undefined (CUDA guide, distributed shared memory:
// "ensure all DSMEM operations complete before a block exits"; the usual fix is a trailing cluster.sync(), see
// cluster-dsmem-read-peer-alive.cu).
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64]
// ptxmm-expect: race-free
// ptxmm-expect: exit 3
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32; barrier.cluster.arrive + wait; mapa.u64
// + ld.u32 of the peer's table; block 0 then reaches ret):
// * The memory model has no rule for it: [W] (line 31) is ordered before [R] (line 35) by the cluster barrier
//   [C] (line 32, release arrive / acquire wait, §4.3, §2.8), so the accesses do not race. But §4.1: a peer
//   CTA's shared memory is only valid while that CTA is alive, and block 0's exit is ordered after none of block
//   1's reads. In the execution where block 0 finishes first, [R] reads memory that no longer belongs to the
//   cluster. Outside the model: a sound answer is UNKNOWN naming the access, not "race-free" (README: nothing
//   unsupported is skipped silently). ptxmm (main e5979ad) answered Ok, exit 0, a wrong verdict; the DSMEM
//   lifetime check (checker/kernel/PeerLifetimes) now makes it UNKNOWN, naming line 35 and block (0,0,0).
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) read_peer_table(int* out) {
  __shared__ int table[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (rank == 0) table[t] = 7 * t;  // [W]
  cluster.sync();  // [C]
  if (rank == 1) {
    const int* peer = cluster.map_shared_rank(table, 0);
    out[t] = peer[63 - t];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(64);
  read_peer_table<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
