// CTA-to-CTA bulk copy (cp.async.bulk.shared::cluster.shared::cta, the DSMEM form of TMA): block 0 of a
// 2-CTA cluster fills a shared tile with generic stores, __syncthreads(), then its thread 0 issues
// fence.proxy.async.shared::cta and a bulk copy of the tile into block 1's shared memory, completing on block
// 1's mbarrier (mapa addresses, inline PTX); block 1 waits with try_wait.acquire.cluster and reads. A final
// cluster barrier keeps block 0 alive while its tile is read. The fixed sibling of
// cluster-bulk-dsmem-copy-no-proxy-fence.cu.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==73 && out[63]==10'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 [..], 1;
// barrier.cluster.arrive / wait (cg cluster.sync); st.shared.u32; bar.sync 0; fence.proxy.async.shared::cta;
// mapa.shared::cluster.u32; cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes;
// mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64):
// * The init [I] (line 54) reaches block 0's copy (its complete_tx) and block 1's arrive and waits through the
//   cluster barrier [C0] (line 55; release arrive, acquire wait, §4.3, §2.8).
// * [W] (line 57, generic weak stores of block 0) po bar.sync ([S], line 58) sw bar.sync of thread 0 po the
//   async-proxy fence [F] (line 60, in block 0, the CTA of the async access, A1) po issue of [L] (line 61),
//   whose async reads of src follow by iss: proxy-preserved base causality through a proxy fence (§2.10 C4,
//   §4.7 "the other direction is explicit"; litmus MB9): no race between [W] and [L]'s reads.
// * Block 1: [X] (line 64, thread 0, expect_tx 256, release .cluster) is the one expected arrival; [L]'s
//   implicit complete_tx (release .cluster, attributed to block 0's thread 0) subtracts 256; the phase completes
//   when both happened. A true [T] (line 65, acquire .cluster) observes the complete_tx: the async writes of dst
//   adone proxy fence adone complete_tx obs [T] po [R] (line 67); head and tail are .cluster in one cluster
//   (ms, both A6 readings agree): no race, [R] reads the copied values (§4.7 tracked path).
// * [C1] (line 69): block 0 arrives only after issuing the copy, but leaves only after block 1 arrived, which
//   block 1 does only after the copy completed: block 0's shared memory outlives the copy's reads (§4.1).
// * Values: src[t] = 10 + t; out[t] = dst[63-t]: out[0] = 73, out[63] = 10.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>

namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;

// The address of the same shared variable in block `rank` of the cluster.
__device__ uint32_t peer_address(const void* local, uint32_t rank) {
  uint32_t remote;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(local))), "r"(rank));
  return remote;
}

__global__ void __cluster_dims__(2, 1, 1) dsmem_copy(int* out) {
  __shared__ alignas(128) int src[64];
  __shared__ alignas(128) int dst[64];
  __shared__ uint64_t full;
  constexpr uint32_t kBytes = sizeof(src);
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&full, 1);  // [I]
  cluster.sync();  // [C0]
  if (rank == 0) {
    src[t] = 10 + t;  // [W]
    __syncthreads();  // [S]
    if (t == 0) {
      ptx::fence_proxy_async(ptx::space_shared);  // [F] the tile's generic stores, for the async proxy
      asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(peer_address(dst, 1)), "r"(static_cast<uint32_t>(__cvta_generic_to_shared(src))), "r"(kBytes), "r"(peer_address(&full, 1)) : "memory");  // [L]
    }
  } else {
    if (t == 0) (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &full, kBytes);  // [X]
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &full, 0)) {  // [T]
    }
    out[t] = dst[63 - t];  // [R]
  }
  cluster.sync();  // [C1]
}

int main() {
  int* out = device_buffer<int>(64);
  dsmem_copy<<<2, 64>>>(out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
