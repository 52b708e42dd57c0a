// Cluster accumulation into distributed shared memory with the entry cluster barrier: each block zeroes its
// own accumulator, cluster.sync(), then adds its contribution into the peer's. The fixed sibling of
// cluster-dsmem-no-entry-barrier.cu.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[128] --assert 'out[0]==2000 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32; barrier.cluster.arrive/wait;
// mapa.u64; generic atom.add.u32):
// * [Z] (line 29) po the release arrive of [E] (line 30) sw its acquire wait in every thread of the cluster
//   (§2.8 rule 3, A9) po [P] (line 32): causality order, so the peer's add comes after the zero in coherence
//   (§3.1) and there is no race. [P] po the release arrive of [B] (line 33) sw its wait po [R] (line 34): the
//   read sees the add (§3.6). The adds from the one peer thread per element are the only RMWs of that byte.
// * Values: block r adds 1000 (r + 1) + t into the peer: out[t] = 2000 + t, out[64 + t] = 1000 + t.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) accumulate(int* out) {
  __shared__ int acc[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;

  acc[t] = 0;      // [Z] zero my accumulator
  cluster.sync();  // [E] every accumulator is zeroed (and every block runs) before anyone adds
  int* peer_acc = cluster.map_shared_rank(acc, rank ^ 1);
  atomicAdd(&peer_acc[t], 1000 * (rank + 1) + t);  // [P]
  cluster.sync();                                  // [B]
  out[rank * 64 + t] = acc[t];                     // [R]
}

int main() {
  int* out = device_buffer<int>(128);
  accumulate<<<2, 64>>>(out);
  finish();
  print("out", out, 128, {0, 64, 127});
  return 0;
}
