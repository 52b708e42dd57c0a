// Cluster hand-off through a remote mbarrier (seed 004, §2.1.2 "mbarrier.cluster.arrive+try_wait"): block 1
// writes into block 0's shared buffer through DSMEM and arrives on block 0's mbarrier with
// mbarrier.arrive.release.cluster.shared::cluster; block 0 waits with try_wait.acquire.cluster and reads.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==563 && out[63]==500'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64; barrier.cluster.arrive +
// wait; mapa.u64 + generic st.u32 (the push); cvta.to.shared.u64 of the mapa'd mbarrier address, then
// mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr]; mbarrier.try_wait.parity.acquire.cluster.shared::cta):
// * The init (a weak write, §4.2) is ordered before block 1's arrives and block 0's waits by [E] (line 38,
//   release arrive / acquire wait of the cluster barrier, §2.8 rule 3).
// * [W] (line 43, block 1, weak store into block 0's buf) po [A] (line 44, release arrive at .cluster: rp1).
//   The 64 remote arrives are .cluster RMWs of one mbarrier, ms across the cluster and linearized; block 0's
//   successful [T] (line 46, acquire at .cluster: ap4) reads the completed phase, so every arrive obs it
//   (§2.6); head and tail are .cluster in one cluster: ms, sw (§2.8 rule 4). [W] is in causality order before
//   [R] (line 48) (§2.10 C1; the DSMEM and local addresses name one location, A15): no race (litmus MB5).
//   The verdict holds under both mbarrier readings (A6): the scopes are .cluster on both sides.
// * Block 0 exits only after the phase completed, i.e. after block 1's last access of its shared memory.
// * Values: buf[t] = 500 + t, out[t] = buf[63 - t]: out[0] = 563, out[63] = 500.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(2, 1, 1) remote_handoff(int* out) {
  __shared__ int buf[64];
  __shared__ uint64_t full;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (rank == 0 && t == 0) ptx::mbarrier_init(&full, 64);  // block 1's 64 threads arrive
  cluster.sync();  // [E] the initialized mbarrier, for the whole cluster

  if (rank == 1) {  // producer block
    int* remote_buf = cluster.map_shared_rank(buf, 0);
    uint64_t* remote_full = cluster.map_shared_rank(&full, 0);
    remote_buf[t] = 500 + t;  // [W]
    ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cluster, ptx::space_cluster, remote_full);  // [A]
  } else {  // consumer block
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &full, 0)) {  // [T]
    }
    out[t] = buf[63 - t];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(64);
  remote_handoff<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
