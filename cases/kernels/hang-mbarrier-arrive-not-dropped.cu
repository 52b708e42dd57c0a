// Bug: the two-phase barrier of mbarrier-arrive-drop-early-exit.cu with warp 1 leaving after a plain
// mbarrier.arrive instead of arrive_drop: the expected count stays 64, phase 1 gets only warp 0's 32 arrivals
// and warp 0 polls it (with the suspend-time hint) for ever.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32]
// ptxmm-expect: race-free
// ptxmm-expect: hang 60
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, mbarrier.arrive.release.cta
// for warp 1):
// * Phase 0 completes with 64 arrivals ([A0] line 54, [D] line 50) and re-arms with pend = exp = 64 (a plain
//   arrive does not lower exp, §4.2 table). Warp 1 has exited; phase 1 gets the 32 arrivals of [A1]
//   (line 59) and nothing else (exit does not arrive on an mbarrier): pend stays 32, the phase never
//   completes, and [T1] (line 60, parity 1) is false in every poll: warp 0 hangs at [T1] in every execution.
// * No race: phase 0 orders warp 1's [W1] (line 49) before [R0] (line 57) as in the fixed sibling; [R1]
//   (line 62) is never reached.
#include "host.cuh"

#include <cstdint>

__device__ void arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ void arrive_drop(uint32_t bar) {
  asm volatile("mbarrier.arrive_drop.release.cta.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

// One poll of the phase with the given parity, letting the thread sleep up to 1 ms (suspend-time hint, in ns).
__device__ bool try_wait_parity_hint(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, 1000000; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}

__global__ void drop_out(int* out) {
  __shared__ int a[64];
  __shared__ int b[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  const uint32_t m = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(m), "r"(64) : "memory");
  __syncthreads();
  if (t >= 32) {  // warp 1: phase 0 only
    a[t] = 2 * t;  // [W1]
    arrive(m);  // [D] BUG: a plain arrive: warp 1 is still expected in phase 1
    return;
  }
  a[t] = 2 * t;
  arrive(m);  // [A0]
  while (!try_wait_parity_hint(m, 0)) {  // [T0]
  }
  const int x = a[63 - t];  // [R0]
  b[t] = 100 + t;  // [W2]
  arrive(m);  // [A1]
  while (!try_wait_parity_hint(m, 1)) {  // [T1]
  }
  out[t] = x + b[31 - t];  // [R1]
}

int main() {
  int* out = device_buffer<int>(32);
  drop_out<<<1, 64>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
