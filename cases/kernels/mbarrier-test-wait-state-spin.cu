// A CTA-wide hand-off through an mbarrier written in inline PTX the pre-parity way: every thread stores its
// slot, arrives with mbarrier.arrive.release.cta (keeping the returned state), spins on
// mbarrier.test_wait.acquire.cta with that state, then reads a slot of the other warp. The fixed sibling of
// mbarrier-read-between-arrive-and-wait.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --assert 'out[0]==189 && out[63]==0 && out[31]==96'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 [..], 64; bar.sync 0;
// st.shared.u32; mbarrier.arrive.release.cta.shared::cta.b64 state, [..]; mbarrier.test_wait.acquire.cta.shared::cta.b64;
// ld.shared.u32):
// * The init [I] (line 45) reaches every arrive and wait through bar.sync ([S], line 46).
// * [W] (line 47) po the release arrive [A] (line 48, rp1); phase 0 completes with the 64th arrive. A true
//   test_wait with the state of phase 0 ([T], line 49, acquire .cta, ap1) reads the completed phase, observed
//   after every arrive of it (the RMW chain on the barrier word, §2.6, §4.2); all in one CTA at .cta: ms, so
//   every [A] sw every true [T], and [W] of thread 63-t is in causality order before [R] (line 51): no race.
// * The spin ends: 64 unconditional arrives complete phase 0, after which test_wait with that state is true.
// * Values: slot[t] = 3t; out[t] = slot[63-t] = 3(63-t): out[0] = 189, out[63] = 0, out[31] = 96.
#include "host.cuh"

#include <cstdint>

__device__ uint64_t arrive_release(uint32_t bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}

__device__ bool test_wait(uint32_t bar, uint64_t state) {
  uint32_t done;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.acquire.cta.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(bar), "l"(state)
               : "memory");
  return done != 0;
}

__global__ void state_spin(int* out) {
  __shared__ int slot[64];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  const uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(64) : "memory");  // [I]
  __syncthreads();  // [S]
  slot[t] = 3 * t;  // [W]
  const uint64_t state = arrive_release(b);  // [A]
  while (!test_wait(b, state)) {  // [T]
  }
  out[t] = slot[63 - t];  // [R]
}

int main() {
  int* out = device_buffer<int>(64);
  state_spin<<<1, 64>>>(out);
  finish();
  print("out", out, 64, {0, 31, 63});
  return 0;
}
