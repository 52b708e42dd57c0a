// Bug: the CTA-to-CTA bulk copy of cluster-bulk-dsmem-copy-proxy-fence.cu without fence.proxy.async between the
// tile's generic stores and the bulk copy that reads them: __syncthreads() orders the stores for the generic
// proxy only, so the async-proxy reads of the copy may miss them.
//
// ptxmm-launch: --grid 2 --block 64 --cluster 2 --arg out=int32[64] --assert 'out[0]==73 && out[63]==10'
// ptxmm-expect: race 45 48 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, no fence.proxy.async):
// * [W] (line 45, generic stores) bc the copy [L]'s async reads of src (line 48) through bar.sync ([S], line
//   46) and iss, but that path holds no proxy fence: base causality is not proxy-preserved across the generic
//   and async proxies (§2.10, C4 needs the fence; §4.7; litmus MB8/PX8). The accesses overlap, one is a write,
//   they are not ms (different proxies): a race, kind different-proxies.
// * Block 1's side is as in the fixed sibling: the copy's writes of dst are ordered before [R] (line 54) by the
//   complete_tx and the acquire [T] (line 52); the init [I] (line 42) by [C0] (line 43).
// * Assertion: the copy may read src values other than 10 + t (its shared memory has no defined initial
//   value): out[0]==73 can fail.
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
