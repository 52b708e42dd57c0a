// Cluster hand-off through a remote mbarrier with relaxed mbarrier operations and explicit .cluster fences
// (seed 004, §2.1.2 "mbarrier.cluster.relaxed.arrive+try_wait + fence.cluster"), initialized with CUTLASS's
// idiom: mbarrier.init, fence.mbarrier_init.release.cluster, a relaxed cluster arrive and a cluster wait.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==563 && out[63]==500'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64;
// fence.mbarrier_init.release.cluster; barrier.cluster.arrive.relaxed; barrier.cluster.wait; generic st.u32;
// fence.release.cluster; mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [addr];
// mbarrier.try_wait.parity.relaxed.cluster.shared::cta; fence.acquire.cluster):
// * Init: [I] (line 38) po [FI] (line 39, fence.mbarrier_init.release.cluster: a release fence restricted to
//   the thread's prior mbarrier.init, §4.10) po the relaxed cluster arrive of [E] (a strong write, A9): a
//   restricted release pattern; the acquire cluster wait of [E] in every thread ends an acquire pattern, so
//   the init is in causality order before every later mbarrier operation (§2.9 restricted fences).
// * Hand-off: [W] (line 47) po [FR] (line 48, fence.release.cluster) po [A] (line 49, relaxed remote arrive,
//   strong): rp3; block 0's successful relaxed wait [T] (line 51, strong read) po [FA] (line 53,
//   fence.acquire.cluster): ap3. The arrives are ms .cluster RMWs of one mbarrier, the wait observes them
//   all (§2.6); FR and FA are .cluster fences of one cluster: ms, FR sw FA (§2.8 rule 4). [W] is in causality
//   order before [R] (line 54): no race.
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
  if (rank == 0 && t == 0) {
    ptx::mbarrier_init(&full, 64);                                 // [I]
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // [FI]
  }
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);  // [E]
  ptx::barrier_cluster_wait();

  if (rank == 1) {  // producer block
    int* remote_buf = cluster.map_shared_rank(buf, 0);
    uint64_t* remote_full = cluster.map_shared_rank(&full, 0);
    remote_buf[t] = 500 + t;                             // [W]
    ptx::fence(ptx::sem_release, ptx::scope_cluster);    // [FR]
    ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_cluster, remote_full);  // [A]
  } else {  // consumer block
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &full, 0)) {  // [T]
    }
    ptx::fence(ptx::sem_acquire, ptx::scope_cluster);  // [FA]
    out[t] = buf[63 - t];                              // [R]
  }
}

int main() {
  int* out = device_buffer<int>(64);
  remote_handoff<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
