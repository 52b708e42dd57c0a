// Cluster "pull" through distributed shared memory (seed 004, §2.1.2 "pull variant"): block 1 writes its own
// shared buffer, fence.release.sync_restrict::shared::cta.cluster, and arrives (relaxed) on block 0's
// mbarrier; block 0 waits (relaxed), fence.acquire.sync_restrict::shared::cluster.cluster, and reads block 1's
// buffer remotely. A final cluster.sync() keeps block 1 alive until block 0 has read its memory.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==563 && out[63]==500'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32;
// fence.release.sync_restrict::shared::cta.cluster; mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr];
// mbarrier.try_wait.parity.relaxed.cluster.shared::cta; fence.acquire.sync_restrict::shared::cluster.cluster;
// mapa.u64 + generic ld.u32):
// * [W] (line 42, block 1's st.shared::cta of its own buf) po [FR] (line 43): a release fence restricted to
//   the thread's earlier .shared::cta accesses (§4.10), [W] among them; po [A] (line 45, relaxed .cluster
//   arrive, a strong write): the restricted release pattern. Block 0's successful relaxed wait [T] (line 47)
//   po [FA] (line 49): the restricted acquire pattern, whose ordering reaches the later .shared::cluster
//   access [R] (line 51, the remote load). The arrives are ms .cluster RMWs observed by the wait (§2.6); FR
//   and FA are .cluster fences of one cluster: ms. So [W] is in causality order before [R] (§2.9 restricted
//   fences, §2.10 C1 with A15): no race. [R] is a generic ld.u32 through the mapa'd address; the object it
//   reads is block 1's shared memory, a .shared::cluster object, which is what the restricted fence covers.
// * [B] (line 53): block 0's reads happen before its arrive, so block 1 cannot exit before them.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(2, 1, 1) pull(int* out) {
  __shared__ int buf[64];
  __shared__ uint64_t full;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (rank == 0 && t == 0) ptx::mbarrier_init(&full, 64);  // block 1's 64 threads arrive
  cluster.sync();

  if (rank == 1) {  // producer block: writes its own shared memory
    buf[t] = 500 + t;                                                                  // [W]
    ptx::fence_sync_restrict(ptx::sem_release, ptx::space_shared, ptx::scope_cluster);  // [FR]
    uint64_t* remote_full = cluster.map_shared_rank(&full, 0);
    ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster, remote_full);  // [A]
  } else {  // consumer block: pulls from block 1's shared memory
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &full, 0)) {  // [T]
    }
    ptx::fence_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);  // [FA]
    const int* remote_buf = cluster.map_shared_rank(buf, 1);
    out[t] = remote_buf[63 - t];  // [R]
  }
  cluster.sync();  // [B] block 1 stays alive until block 0 has read its buffer
}

int main() {
  int* out = device_buffer<int>(64);
  pull<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
