// Bug: the test_wait hand-off of mbarrier-test-wait-state-spin.cu with the read of the other warp's slot hoisted
// between the thread's own arrive and its wait ("the arrive already synchronised"): an arrive releases, it does
// not acquire, and nothing is promised for accesses between a thread's arrive and its wait.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --assert 'out[0]==189 && out[63]==0 && out[31]==96'
// ptxmm-expect: race 43 45 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, the ld.shared of the slot
// between mbarrier.arrive.release.cta and the test_wait loop):
// * [R] (line 45) is po after the reader's release arrive [A] (line 44) and po before its acquire wait [T]
//   (line 46): the arrive is an RMW with release semantics only, so no acquire pattern ends before [R] (§2.5,
//   §4.2 guarantee (v): nothing is promised between a thread's own arrive and wait). Thread 63-t's [W] (line 43)
//   and [R] are unordered: weak, generic — a race, kind no-synchronisation.
// * Assertion: [R] may read slot[63-t] before it is written (no defined initial value): out[0]==189 can fail.
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
  const int early = slot[63 - t];  // [R] BUG: read between the arrive and the wait
  while (!test_wait(b, state)) {  // [T]
  }
  out[t] = early;
}

int main() {
  int* out = device_buffer<int>(64);
  state_spin<<<1, 64>>>(out);
  finish();
  print("out", out, 64, {0, 31, 63});
  return 0;
}
