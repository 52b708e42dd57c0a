// Cluster counter through red.async (DeepGEMM / FlashInfer-style cross-CTA signalling in a cluster): the 32
// threads of block 1 add into a counter in block 0's shared memory with red.async ... .mbarrier::complete_tx,
// each completing 4 transaction bytes on block 0's mbarrier; block 0 expects 128 bytes, waits with
// try_wait.acquire.cluster and reads the counter. Written with inline PTX (mapa.shared::cluster.u32, the cluster
// barrier, fence.mbarrier_init). The fixed sibling of red-async-cluster-read-before-wait.cu.
//
// ptxmm-launch: --grid 2 --block 32 --cluster 2 --arg out=int32[32] --assert 'out[0]==528 && out[31]==559'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32 (the zero); mbarrier.init.shared::cta.b64;
// fence.mbarrier_init.release.cluster; barrier.cluster.arrive.release.aligned + barrier.cluster.wait.acquire.aligned;
// mapa.shared::cluster.u32; red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32;
// mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64):
// * [Z] (line 52, block 0 thread 0 zeroes the counter) and the init are ordered before block 1's [A] by the cluster
//   barrier [E] (line 56: release arrive, acquire wait, §4.3, §2.8 rule 3).
// * [A] (line 61): each red.async is a .relaxed.cluster atomic add on block 0's counter (generic proxy, §4.8), ms
//   with the others (same scope instance, strong): linearized, sum 1 + ... + 32 = 528. Its completion performs
//   complete_tx on block 0's mbarrier with .release.cluster semantics, after the add (§4.8).
// * The phase completes after [X] (line 63, expect_tx 128) and all 32 complete_tx (4 bytes each). Block 0's
//   successful [T] (line 64, acquire .cluster) reads the completed state: each complete_tx obs it and synchronizes
//   with it (ms: both .cluster in one cluster), so every [A] is in causality order before [R] (line 65, a weak
//   ld.shared of the counter by each block-0 thread): no race, [R] reads 528.
// * Block 0 does not exit before the phase completed, i.e. after block 1's last access of its shared memory.
// * Values: out[t] = 528 + t: out[0] = 528, out[31] = 559.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void wait_cluster(const uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n"
      "@P1 bra DONE;\n"
      "bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(smem_addr(bar)), "r"(parity) : "memory");
}

__global__ void __cluster_dims__(2, 1, 1) cluster_count(int* out) {
  __shared__ alignas(8) uint64_t bar;
  __shared__ unsigned count;
  const int t = threadIdx.x;
  unsigned rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (rank == 0 && t == 0) {
    count = 0;  // [Z]
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");  // [E]
  if (rank == 1) {
    uint32_t remote_count, remote_bar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_count) : "r"(smem_addr(&count)));
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote_bar) : "r"(smem_addr(&bar)));
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(remote_count), "r"(t + 1), "r"(remote_bar) : "memory");  // [A]
  } else {
    if (t == 0) asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 _, [%0], 128;" ::"r"(smem_addr(&bar)) : "memory");  // [X]
    wait_cluster(&bar, 0);  // [T]
    out[t] = static_cast<int>(count) + t;  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(32);
  cluster_count<<<2, 32>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
