// Cluster push with st.async (seed 004, §2.1.2 "st.async + mbarrier.acquire.try_wait"): block 1 stores into
// block 0's shared buffer with st.async, each store completing transaction bytes on block 0's mbarrier; block
// 0's thread 0 announces the expected bytes, every thread of block 0 waits with try_wait.acquire.cluster.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==563 && out[63]==500'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64; barrier.cluster.arrive/wait;
// mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 ..., 256;
// st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.b32 [a], v, [bar] (addresses from mapa.u64 +
// cvta.to.shared.u64); mbarrier.try_wait.parity.acquire.cluster.shared::cta):
// * [S] (line 43) is an asynchronous weak store into block 0's buf (generic proxy, reading A11) whose
//   completion performs complete_tx on block 0's mbarrier with .release.cluster semantics, ordered after the
//   store itself (§4.8). The phase completes once thread 0's arrive ([X], line 46, expect_tx 256) and all 64
//   complete_tx (4 bytes each) happened, in any order (the tx-count may go negative meanwhile, §4.2).
// * Block 0's successful [T] (line 48, acquire .cluster) reads the completed state: each complete_tx obs it
//   (ms .cluster RMWs, §2.6) and synchronizes with it (head .cluster by block 1's thread, tail .cluster in
//   block 0: ms); the store is ordered before its complete_tx. So [S] is in causality order before [R]
//   (line 50): no race (litmus MB11, §7.8). Both ends are .cluster: no dependence on reading A6.
// * Values: out[t] = buf[63 - t] = 500 + 63 - t.
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
  if (rank == 0 && t == 0) ptx::mbarrier_init(&full, 1);  // one arrival (thread 0's) + the transaction bytes
  cluster.sync();  // the initialized mbarrier, for the whole cluster; block 0 runs

  if (rank == 1) {  // producer block
    int* remote_buf = cluster.map_shared_rank(buf, 0);
    uint64_t* remote_full = cluster.map_shared_rank(&full, 0);
    ptx::st_async(&remote_buf[t], 500 + t, remote_full);  // [S]
  } else {  // consumer block
    if (t == 0) {
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &full, 256);  // [X]
    }
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &full, 0)) {  // [T]
    }
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
