// Cluster "push" exchange through distributed shared memory (seed 004, §2.1.2 "barrier.cluster.arrive+wait"):
// each block of a 2-block cluster writes into its peer's shared buffer, cluster.sync(), then reads its own
// buffer.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[128] --assert 'out[0]==2000 && out[63]==2063 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cluster.sync() is barrier.cluster.arrive (default
// .release) + barrier.cluster.wait (default .acquire); map_shared_rank is mapa.u64 on a generic address and
// the push a generic st.u32 — the reader must resolve it to the peer block's shared window, §4.1):
// * [W] (line 35) in block r writes recv[t] of block r^1; [R] (line 37) in block r^1 reads it (the same byte:
//   a DSMEM address and the local address name one location, reading A15).
// * [W] po the release arrive of [B] (line 36) sw the acquire wait of [B] in every thread of the cluster
//   (§2.8 rule 3, §4.3; ptxmm models the cluster barrier as an RMW/read of a per-cluster location, A9) po [R]:
//   causality order (§2.10 C1). No race (litmus CB1, §7.7).
// * [E] (line 33) makes sure the peer block runs before its shared memory is written (CUDA's rule for DSMEM);
//   after [B] no block touches the other's memory, so no exit barrier is needed.
// * Values: block r pushes 1000 (r + 1) + t: out[t] = 2000 + t, out[64 + t] = 1000 + t.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) push_exchange(int* out) {
  __shared__ int recv[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;

  cluster.sync();  // [E] the peer block is running
  int* peer_recv = cluster.map_shared_rank(recv, rank ^ 1);
  peer_recv[t] = 1000 * (rank + 1) + t;  // [W] store into the peer's buffer (DSMEM)
  cluster.sync();                        // [B] barrier.cluster.arrive (release) + wait (acquire)
  out[rank * 64 + t] = recv[t];          // [R] local load of what the peer pushed
}

int main() {
  int* out = device_buffer<int>(128);
  push_exchange<<<2, 64>>>(out);
  finish();
  print("out", out, 128, {0, 63, 64, 127});
  return 0;
}
