// A 4-CTA cluster passing one 128-byte message around a ring with st.async: every thread of block r stores its
// word into block (r+1)%4's inbox with st.async.shared::cluster.mbarrier::complete_tx::bytes (mapa addresses,
// inline PTX), each block's thread 0 announces the 128 bytes with expect_tx on its own mbarrier, and every
// thread waits with try_wait.parity.acquire.cluster before reading its inbox. The fixed sibling of
// cluster4-st-async-ring-relaxed-wait.cu.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[128] --assert 'out[0]==331 && out[31]==300 && out[32]==31 && out[127]==200'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 [..], 1; barrier.cluster.arrive /
// wait; mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 ..., 128; mapa.shared::cluster.u32;
// st.async.shared::cluster.mbarrier::complete_tx::bytes.u32; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64):
// * The inits [I] (line 49) reach every peer's st.async completion and the own waits through the cluster
//   barrier [C] (line 50, release arrive / acquire wait, §4.3).
// * [A] (line 53) is a weak generic store into the next block's inbox (A11) whose completion performs a
//   complete_tx of 4 bytes, release .cluster, on that block's mbarrier (§4.8: AW adone AD). With [X] (line 51,
//   the one expected arrival, +128 tx) the phase completes only after all 32 complete_tx of the previous block's
//   stores (tx may go negative first: the check needs pend = 0 and tx = 0, §4.2). A true [T] (line 54, acquire
//   .cluster) observes each of them: AW adone AD obs [T] po [R] (line 56), ms at .cluster in one cluster
//   (tracked path, litmus MB11): no race, [R] reads the stored word.
// * Every block leaves only after its own inbox is complete, and no block reads a peer's memory: no access
//   reaches the shared memory of a block that may have exited (§4.1).
// * Values: block r's inbox[i] = ((r+3)%4)*100 + i; out[r*32+t] = inbox[31-t]: out[0] = 331, out[31] = 300,
//   out[32] = 31, out[127] = 200.
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
  while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &full, 0)) {  // [T]
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
