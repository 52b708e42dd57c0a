// cp.async completion through an mbarrier instead of wait_group (the Ampere "arrive-on" form, inline PTX): each
// thread copies one element with cp.async.ca, then cp.async.mbarrier.arrive.noinc makes the copy's completion
// count as the thread's own arrival on a barrier initialised with the block's 64 threads; every thread then
// polls try_wait.parity and reads an element the other warp copied. Two blocks, one barrier each. The fixed
// sibling of hang-cpasync-mbarrier-arrive-inc.cu.
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=4,5,6 --arg out=int32[128] --assert 'out[32]==4 && out[33]==5 && out[34]==6 && out[0]==0 && out[96]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 [..], 64; bar.sync 0;
// cp.async.ca.shared.global [..], [..], 4; cp.async.mbarrier.arrive.noinc.shared::cta.b64;
// mbarrier.try_wait.parity.shared::cta.b64 (default .acquire.cta); ld.shared.u32):
// * The init [I] (line 46, weak write) reaches every thread's arrive and waits through bar.sync ([S], line 47;
//   §2.8 rule 2, §4.2 initialization idioms).
// * [C] (line 49) writes tile[t] asynchronously (AW, weak, generic, §4.6). [A] (line 50) is an async arrive-on
//   (AD, release-like async RMW on the barrier) with adone edges from the AW of every earlier cp.async of the
//   thread; .noinc: the pending count is NOT incremented first, so the 64 async arrivals are the phase's 64
//   expected arrivals and phase 0 completes once every copy of the block has landed (§4.2 table).
// * A true [W] (line 51, acquire .cta, reads the completed phase) is observed after every AD of the phase (the
//   RMW chain on the barrier word, §2.6); AW adone AD obs [W] po [R] (line 53): the tracked async-release path
//   (guarantee (ii) of §4.2; `tracked` in ptx-core.cat), in one CTA: no race; [R] reads the copied value.
// * The poll ends: all 64 arrivals are issued unconditionally, so phase 0 completes and parity 0 is seen.
// * Values: out[b*64+t] = in[b*64 + ((t+32)&63)]: out[32..34] = 4, 5, 6; out[0] = in[32] = 0; out[96] = in[96] = 0.
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
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(b) : "memory");  // [A]
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
