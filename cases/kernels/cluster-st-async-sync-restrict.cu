// Cluster push with st.async, consumed with a relaxed wait plus fence.acquire.sync_restrict::shared::cluster
// (seed 004, §2.1.2 "st.async + mbarrier.relaxed.try_wait + fence.sync_restrict": acquire only the
// distributed shared memory, not global memory).
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==563 && out[63]==500'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as cluster-st-async.cu, but
// mbarrier.try_wait.parity.relaxed.cluster.shared::cta then fence.acquire.sync_restrict::shared::cluster.cluster):
// * [S] (line 38) completes with a .release.cluster complete_tx on block 0's mbarrier, ordered after the store
//   (§4.8). Block 0's successful relaxed wait [T] (line 43) is a strong read; po [F] (line 45) is an acquire
//   fence restricted to later .shared::cluster accesses (§4.10): the restricted acquire pattern, ms with the
//   complete_tx (.cluster both). Its ordering reaches exactly the thread's later shared-memory accesses
//   (ptx-core.cat out-of-restr), and [R] (line 46) is one (a local shared load names a .shared::cluster
//   object too). So [S] is in causality order before [R]: no race.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

__global__ void __cluster_dims__(2, 1, 1) st_async_push(int* out) {
  __shared__ int buf[64];
  __shared__ uint64_t full;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (rank == 0 && t == 0) ptx::mbarrier_init(&full, 1);
  cluster.sync();

  if (rank == 1) {  // producer block
    int* remote_buf = cluster.map_shared_rank(buf, 0);
    uint64_t* remote_full = cluster.map_shared_rank(&full, 0);
    ptx::st_async(&remote_buf[t], 500 + t, remote_full);  // [S]
  } else {  // consumer block
    if (t == 0) {
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cluster, ptx::space_shared, &full, 256);
    }
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cluster, &full, 0)) {  // [T]
    }
    ptx::fence_sync_restrict(ptx::sem_acquire, ptx::space_cluster, ptx::scope_cluster);  // [F]
    out[t] = buf[63 - t];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(64);
  st_async_push<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
