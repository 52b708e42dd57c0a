// Warp-specialised TMA pipeline (FlashAttention-3 / CUTLASS sm90 shape, one stage used twice): warp 0's elected
// lane (elect.sync) is the producer — it announces the bytes on the "full" mbarrier and issues a bulk copy of
// the next tile into the stage, waiting on the "empty" mbarrier before it reuses the stage; the 32 lanes of warp 1
// are the consumers — they wait on "full" with the phase bit of the round, read the tile, fence the async proxy
// (their generic reads come before the next async write of the stage) and arrive on "empty". The waits are
// CUTLASS's inline-PTX try_wait loops. The fixed sibling of ws-tma-ring-early-release.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=5,6,7 --arg out=int32[64] --assert 'out[0]==6 && out[2]==8 && out[31]==1 && out[32]==1 && out[63]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 (full: 1, empty: 32);
// bar.sync 0; elect.sync; mbarrier.arrive.expect_tx.shared::cta.b64 _, [full], 128 (default .release.cta);
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes; mbarrier.try_wait.parity.shared::cta.b64
// (default .acquire.cta) in a LAB_WAIT / @P1 bra DONE / bra LAB_WAIT loop; fence.proxy.async.shared::cta;
// mbarrier.arrive.shared::cta.b64 _, [empty]; both loops over the two rounds unrolled by nvcc):
// * RAW: round k's copy [L] (line 69) writes the stage in the async proxy; its complete_tx (release .cluster,
//   after the copy's writes and the implicit async->generic proxy fence, §4.7, §2.10) and the producer's [X]
//   (line 68, expect_tx 128) complete phase k of "full"; a consumer's [T] (line 74, acquire, parity k) succeeds only on
//   the completed phase, reads it and synchronizes with the complete_tx (§4.2): the copy's writes are in causality
//   order before the consumer's [R] (line 75) — no race, [R] reads round k's tile (litmus MB7, PX10).
// * WAR: every consumer's [R] of round 0 po [PF] (line 77, fence.proxy.async.shared::cta) po [E] (line 78, release
//   arrive on "empty"); the 32 arrivals complete phase 0 of "empty"; the producer's [P] (line 67, acquire wait
//   parity 0) succeeds only then and synchronizes with them, and round 1's copy is issued after it (§2.9 iss):
//   [R] -> [PF] -> ... -> copy is proxy-preserved with the async proxy fence in the copy's CTA (§2.10 C4): no
//   race between round 0's reads and round 1's async writes, and [R] of round 0 cannot read round 1's tile.
// * Phases: "full" completes phase 0 (round 0) and phase 1 (round 1); the consumer waits parity 0 then 1, each
//   on the phase it means (try_wait.parity(P) succeeds iff the current phase's parity differs from P, §4.2):
//   round 1's wait cannot pass on phase 0 because its parity is 1 and phase 1 is incomplete until round 1's
//   copy lands. Every wait's phase completes: no hang.
// * Values: out[32k + c] = in[32k + c] + 1 with in = 5, 6, 7, 0, ...: out[0] = 6, out[2] = 8, out[31] = 1,
//   out[32] = 1, out[63] = 1.
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
      const int v = stage[lane];  // [R]
      out[32 * k + lane] = v + 1;
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");                               // [PF]
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(&empty)) : "memory");  // [E]
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
