// Bug: the cp.async arrive-on kernel of cpasync-mbarrier-noinc.cu with cp.async.mbarrier.arrive WITHOUT .noinc
// while the barrier is still initialised with the block's 64 threads and no thread arrives otherwise: each
// async arrival first raises the pending count by one, so the 64 arrivals cancel out and phase 0 never completes.
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=4,5,6 --arg out=int32[128]
// ptxmm-expect: race-free
// ptxmm-expect: hang 44
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 [..], 64; bar.sync 0;
// cp.async.ca.shared.global; cp.async.mbarrier.arrive.shared::cta.b64 (no .noinc); mbarrier.try_wait.parity):
// * Without .noinc, [A] (line 43) increments the pending count of the current phase before its async arrive-on
//   decrements it (§4.2 table): net zero. Phase 0 needs 64 arrivals (init [I], line 39), no instruction of the
//   kernel performs another, so pend stays 64, the phase never completes, and try_wait.parity 0 ([W], line 44)
//   is false in every execution: every thread polls for ever — a hang at [W] in every execution (fair progress
//   cannot help: nothing can change the barrier's state).
// * No race: the reads [R] (line 46) are never reached; the copies [C] (line 42) write distinct elements, and
//   the init is ordered before every arrive by bar.sync ([S], line 40).
#include "host.cuh"

#include <cstdint>

// One poll of the barrier's phase with the given parity (inline PTX; default .acquire.cta).
__device__ bool try_wait_parity(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}

__global__ void copy_arrive(const int* in, int* out) {
  __shared__ alignas(16) int tile[64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  const int base = blockIdx.x * 64;
  const uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(64) : "memory");  // [I]
  __syncthreads();  // [S]
  const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(&in[base + t]) : "memory");  // [C]
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(b) : "memory");  // [A] BUG: no .noinc
  while (!try_wait_parity(b, 0)) {  // [W]
  }
  out[base + t] = tile[(t + 32) & 63];  // [R]
}

int main() {
  int* in = device_buffer<int>(128, {4, 5, 6});
  int* out = device_buffer<int>(128);
  copy_arrive<<<2, 64>>>(in, out);
  finish();
  print("out", out, 128, {0, 32, 33, 34, 96});
  return 0;
}
