// Bug: the st.async ring of cluster4-st-async-ring.cu polling its mbarrier with try_wait.relaxed.cluster (the
// form a spin loop uses before a fence.acquire) and forgetting the fence: the wait sees the phase complete but
// synchronizes with nothing, so the inbox may be read before the peer's stores are visible.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[128] --assert 'out[0]==331 && out[31]==300 && out[32]==31 && out[127]==200'
// ptxmm-expect: race 55 58 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, the wait
// mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64, no fence after it):
// * [A] (line 55)'s completion is a release complete_tx; [T] (line 56) reads the completed phase but is relaxed,
//   and no fence.acquire follows it: it ends no acquire pattern (ap1 needs .acquire, ap3 a fence after it,
//   §2.5, §4.2). Nothing else orders the peer's st.async write before [R] (line 58): weak write, weak read,
//   generic proxy, unordered — a race, kind no-synchronisation.
// * The inits ([I] line 51) are ordered by [C] (line 52); [X] (line 53) as in the fixed sibling.
// * Assertion: [R] may read the inbox before the stored word (shared memory has no defined initial value):
//   out[0]==331 can fail.
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

// One relaxed poll of the barrier's phase (mbarrier.try_wait.relaxed, PTX 8.6): it orders nothing by itself.
__device__ bool try_wait_parity_relaxed(uint64_t* bar, uint32_t parity) {
  uint32_t done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(parity)
               : "memory");
  return done != 0;
}

__global__ void __cluster_dims__(4, 1, 1) st_async_ring(int* out) {
  __shared__ alignas(16) int inbox[32];
  __shared__ uint64_t full;
  constexpr uint32_t bytes = sizeof(inbox);
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&full, 1);  // [I]
  cluster.sync();  // [C]
  if (t == 0) (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &full, bytes);  // [X]
  const unsigned next = (rank + 1) % 4;
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(peer_address(&inbox[t], next)), "r"(static_cast<int>(rank * 100) + t), "r"(peer_address(&full, next)) : "memory");  // [A]
  while (!try_wait_parity_relaxed(&full, 0)) {  // [T] BUG: relaxed, and no fence.acquire after it
  }
  out[rank * 32 + t] = inbox[31 - t];  // [R]
}

int main() {
  int* out = device_buffer<int>(128);
  st_async_ring<<<4, 32>>>(out);
  finish();
  print("out", out, 128, {0, 31, 32, 127});
  return 0;
}
