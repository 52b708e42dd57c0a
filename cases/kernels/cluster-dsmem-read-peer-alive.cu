// Block 1 of a 2-CTA cluster reads a table from block 0's shared memory (map_shared_rank) between two
// cluster.sync() calls: the first publishes the table, the second keeps block 0 alive until block 1 has read it.
// The fixed sibling of cluster-dsmem-read-peer-exited.cu.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==441 && out[63]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32; barrier.cluster.arrive + wait (twice);
// mapa.u64 + ld.u32 of the peer's table):
// * [W] (line 29, block 0) po the release arrive of [C] (line 30) sw block 1's acquire wait (§4.3, §2.8 rule 3)
//   po [R] (line 33): causality order, no race; the DSMEM address and block 0's local address of a table entry
//   are one location (A15).
// * [E] (line 35): block 0 leaves only after its wait, which completes only after every block-1 thread arrived,
//   po after its [R]: block 0's shared memory outlives every access to it (§4.1).
// * Values: out[t] = 7 * (63 - t): out[0] = 441, out[63] = 0.
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
  cluster.sync();  // [E] block 0 stays until block 1 has read its table
}

int main() {
  int* out = device_buffer<int>(64);
  read_peer_table<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
