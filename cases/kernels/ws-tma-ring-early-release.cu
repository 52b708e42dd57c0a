// The warp-specialised TMA pipeline of ws-tma-ring-reuse.cu with the consumers releasing the stage too early:
// they arrive on the "empty" mbarrier right after their "full" wait and only then read the stage (a consumer_release
// hoisted above the last use of the buffer), so the producer may already be refilling the stage with the next
// tile while they read it.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=5,6,7 --arg out=int32[64] --assert 'out[0]==6 && out[2]==8 && out[31]==1 && out[32]==1 && out[63]==1'
// ptxmm-expect: race 54 62 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in ws-tma-ring-reuse.cu with the fence and the "empty" arrive
// [E] before the ld.shared [R]):
// * Round 0's [R] (line 62, generic read of the stage) is po-AFTER the consumer's release arrive [E] (line 61), so the
//   producer's acquire wait on "empty" and round 1's copy [L] (line 54, async-proxy write of the stage) are not
//   ordered after it: the release covers only accesses po-before it (§2.5). [R] and round 1's [L] conflict, one
//   generic and one async, and are not in causality order: a race, kind different-proxies.
// * Round 0's [R] may read round 1's tile (§3.6): out[0] == 6 is not guaranteed (round 1's in[0] is 0). The RAW side (each [R] after
//   its round's "full" wait) is unchanged, so round 1's reads are still right.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// CUTLASS's ClusterBarrier::wait: poll try_wait.parity until the phase with the other parity has completed.
__device__ __forceinline__ void wait_parity(const uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred P1;\n"
      "LAB_WAIT:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
      "@P1 bra DONE;\n"
      "bra LAB_WAIT;\n"
      "DONE:\n"
      "}\n" ::"r"(smem_addr(bar)), "r"(parity) : "memory");
}

__global__ void ws_ring(const int* in, int* out) {
  __shared__ alignas(128) int stage[32];
  __shared__ alignas(8) uint64_t full, empty;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&full)) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 32;" ::"r"(smem_addr(&empty)) : "memory");
  }
  __syncthreads();
  if (warp == 0) {  // producer warp: one elected lane drives the copies
    uint32_t elected;
    asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(elected));
    if (elected) {
      for (int k = 0; k < 2; ++k) {
        if (k > 0) wait_parity(&empty, 0);  // [P] the consumers released the stage
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 128;" ::"r"(smem_addr(&full)) : "memory");  // [X]
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 128, [%2];" ::"r"(smem_addr(stage)), "l"(in + 32 * k), "r"(smem_addr(&full)) : "memory");  // [L]
      }
    }
  } else {  // consumer warp
    for (int k = 0; k < 2; ++k) {
      wait_parity(&full, k & 1);  // [T]
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(&empty)) : "memory");  // [E] bug: before the read
      const int v = stage[lane];  // [R]
      out[32 * k + lane] = v + 1;
    }
  }
}

int main() {
  int* in = device_buffer<int>(64, {5, 6, 7});
  int* out = device_buffer<int>(64);
  ws_ring<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 2, 31, 32, 63});
  return 0;
}
