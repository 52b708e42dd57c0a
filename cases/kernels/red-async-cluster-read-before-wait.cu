// The cluster counter of red-async-cluster-count.cu with block 0 reading the counter before its mbarrier wait:
// the red.async adds of block 1 may not have happened (or become visible) yet. The wait stays after the read,
// so block 0 still outlives the remote adds.
//
// ptxmm-launch: --grid 2 --block 32 --cluster 2 --arg out=int32[32] --assert 'out[0]==528 && out[31]==559'
// ptxmm-expect: race 54 51 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in red-async-cluster-count.cu, ld.shared.u32 of the counter
// before the try_wait loop):
// * [R] (line 54, weak ld.shared by every block-0 thread) and [A] (line 51, block 1's .relaxed.cluster red.async adds,
//   generic proxy, §4.8) conflict; [R] is weak, so not morally strong, and nothing orders [A] before [R]: the
//   cluster barrier [E] precedes both, and the mbarrier acquire [T] (line 55) comes after [R] in po. A race, kind
//   no-synchronisation (same proxy, one access weak).
// * [R] may read 0 or any partial sum (§3.6): out[0] == 528 is not guaranteed.
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
    const int early = static_cast<int>(count);  // [R] bug: read before the wait
    wait_cluster(&bar, 0);  // [T] (keeps block 0 alive until block 1's adds completed)
    out[t] = early + t;
  }
}

int main() {
  int* out = device_buffer<int>(32);
  cluster_count<<<2, 32>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
