// All-gather around a cluster of four CTAs in inline PTX (the CUTLASS / DeepGEMM DSMEM style): each block writes
// its shared slot, the cluster meets at barrier.cluster.arrive.release / wait.acquire, each block reads its right
// neighbour's slot with mapa.shared::cluster + ld.shared::cluster, and a trailing cluster barrier keeps every
// block alive until its neighbour has read. The fixed sibling of cluster4-dsmem-ring-relaxed.cu.
//
// ptxmm-launch: --grid 4 --block 32 --cluster 4 --arg out=int32[128] --assert 'out[0]==100 && out[31]==131 && out[32]==200 && out[127]==31'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mov %cluster_ctarank; st.shared.u32;
// barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned; mapa.shared::cluster.u32;
// ld.shared::cluster.u32):
// * [W] (line 33, weak store of block r's slot) po [A] (line 34, release arrive of the cluster barrier); block (r+3)%4's
//   [V] (line 35, acquire wait of the same generation) is sw-after every release arrive of the generation (§4.3, §2.8
//   rule 3, reading A9), and its [R] (line 39, weak ld.shared::cluster of block r's slot, the same address as the owner's
//   local one, A15) is po-after [V]: [W] is in causality order before [R] (§2.10 C1): no race.
// * The second cluster barrier (line 41) orders every [R] before its owner's exit (a CTA's shared memory is valid only
//   while it runs, §4.1); it is the last access of each slot.
// * Values: block r's slot[t] = 100 r + t; out[32 r + t] = block (r+1)%4's slot[t]: out[0] = 100, out[31] = 131,
//   out[32] = 200, out[127] = 31.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void __cluster_dims__(4, 1, 1) ring_gather(int* out) {
  __shared__ int slot[32];
  const int t = threadIdx.x;
  unsigned rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  slot[t] = 100 * rank + t;                                             // [W]
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");  // [A]
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
