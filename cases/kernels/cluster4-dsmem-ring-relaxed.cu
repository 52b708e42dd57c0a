// The cluster all-gather of cluster4-dsmem-ring-asm.cu with the middle cluster barrier's arrive made
// barrier.cluster.arrive.relaxed (the cheap arrive CUTLASS uses where the barrier only has to say "everyone is
// running"): the wait still waits for all four blocks, but the slots written before it are not published.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[128] --assert 'out[0]==100'
// ptxmm-expect: race 29 35 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in cluster4-dsmem-ring-asm.cu with
// barrier.cluster.arrive.relaxed.aligned at [A]):
// * A relaxed arrive orders none of the arriving thread's earlier accesses (§4.3); only a release arrive, or a
//   release fence before a relaxed arrive, synchronizes with the acquire wait (§2.8 rule 3, reading A9), and
//   there is neither. So [W] (line 29, weak store of a block's slot) and the neighbour's [R] (line 35, weak
//   ld.shared::cluster of it) are not in causality order: a race, kind no-synchronisation (litmus CB2, §7.7).
// * [R] may read the slot's initial contents (§3.6): the assertion is not guaranteed. The trailing release
//   cluster barrier orders [R] before the owner's exit as before.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void __cluster_dims__(4, 1, 1) ring_gather(int* out) {
  __shared__ int slot[32];
  const int t = threadIdx.x;
  unsigned rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  slot[t] = 100 * rank + t;                                             // [W]
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");  // [A] bug: relaxed
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");    // [V]
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(smem_addr(&slot[t])), "r"((rank + 1) % 4));
  int v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");  // [R]
  out[32 * rank + t] = v;
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");  // [X]
}

int main() {
  int* out = device_buffer<int>(128);
  ring_gather<<<4, 32>>>(out);
  finish();
  print("out", out, 128, {0, 31, 32, 127});
  return 0;
}
