// A barrier shared by two warps for two phases where warp 1 takes part only in the first: it leaves with
// mbarrier.arrive_drop (its arrival counts for phase 0 and the expected count drops to 32 for later phases),
// while warp 0 goes on to a second phase alone, polling with mbarrier.try_wait.parity and a suspend-time hint
// (inline PTX). The fixed sibling of hang-mbarrier-arrive-not-dropped.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==257 && out[31]==164'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 [..], 64; bar.sync 0;
// mbarrier.arrive.release.cta.shared::cta.b64; mbarrier.arrive_drop.release.cta.shared::cta.b64;
// mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [..], parity, 1000000):
// * Phase 0: warp 0's 32 arrives [A0] (line 60) and warp 1's 32 arrive_drops [D] (line 56) make 64 arrivals
//   (pend 64 -> 0, §4.2 table); each arrive_drop also lowers the expected count, so the phase re-arms with
//   pend = exp = 32. Warp 1's [W1] (line 55) po [D] (release) sw warp 0's true [T0] (line 61, acquire .cta,
//   §2.8 rule 3) po [R0] (line 63): no race.
// * Phase 1: only warp 0 arrives ([A1], line 65), each lane after its own [T0] returned true (the "one wait
//   per phase before the next arrive" rule, §4.2); its 32 arrivals complete phase 1, so [T1] (line 66, parity
//   1) ends; [W2] (line 64) po [A1] sw [T1] po [R1] (line 68): no race. Phase 1 cannot complete before every
//   warp-0 lane arrived, i.e. after every lane's [T0]: no lane polls parity 0 at phase 2.
// * Warp 1 exits after [D] without waiting (its barrier obligations are dropped).
// * Values: a[t] = 2t, b[l] = 100 + l; out[l] = a[63-l] + b[31-l] = 257 - 3l: out[0] = 257, out[31] = 164.
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
    arrive_drop(m);  // [D]
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
