// Cluster accumulation into distributed shared memory without the entry cluster barrier: each block zeroes its
// own accumulator and, with nothing in between, adds its contribution into the peer block's accumulator —
// which the peer may zero afterwards ("DSMEM written before the peer initialised it"; the fix is
// cluster-dsmem-entry-barrier.cu).
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[128] --assert 'out[0]==2000 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race 31 34 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [Z] (line 31) is st.shared.u32, [P] (line 34) a
// generic atom.add.u32 on the mapa'd address, .relaxed.gpu by default, i.e. .cluster on shared memory, §1.3):
// * [Z] of block r (thread t) and [P] of block r^1 (thread t) write the same element of block r's accumulator.
//   [Z] is weak, so the pair is not morally strong (§2.3), and nothing orders [P] after [Z]: the only cluster
//   barrier comes after both. A race, no-synchronisation.
// * Being racing writes, they may stay unordered in coherence (§2.12, A5), and the read after the barrier
//   may return the zero instead of the sum (§3.6 only excludes writes co-before one in causality order before
//   the read): out[0] == 2000 can fail.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) accumulate(int* out) {
  __shared__ int acc[64];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;

  acc[t] = 0;  // [Z] zero my accumulator
  // missing: cluster.sync();  the peer may not have zeroed (or even started) yet
  int* peer_acc = cluster.map_shared_rank(acc, rank ^ 1);
  atomicAdd(&peer_acc[t], 1000 * (rank + 1) + t);  // [P] add my contribution into the peer's accumulator
  cluster.sync();
  out[rank * 64 + t] = acc[t];
}

int main() {
  int* out = device_buffer<int>(128);
  accumulate<<<2, 64>>>(out);
  finish();
  print("out", out, 128, {0, 64, 127});
  return 0;
}
