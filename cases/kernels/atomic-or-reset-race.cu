// A stale bit mask reset with atomicAnd(mask, 0) by thread 0 and then marked with atomicOr by the threads whose
// index says so — without a barrier between the reset and the marks (the fix is atomic-or-reset-syncthreads.cu).
// All accesses are atomics or ordered by the final __syncthreads(), so nothing races; but a mark that comes before
// the reset in coherence is wiped by it. One CTA of 128 threads.
//
// ptxmm-launch: --grid 1 --block 128 --arg mask=uint32[1]=4294901760 --arg out=uint32[1] --assert 'out[0]==1082400'
// ptxmm-expect: race-free
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [R] atom.global.and.b32 0 by thread 0, [O]
// atom.global.or.b32 by t % 37 == 5 (t = 5, 42, 79, 116: bits 5, 10, 15, 20), both .relaxed.gpu (§5.1), bar.sync 0,
// [C] ld.global.u32 and st.global.u32 by thread 0):
// * mask: [R] (line 25) and [O] (line 26) are strong .gpu RMWs, pairwise morally strong (§2.3); the read [C] (line
//   28) follows the `bar.sync 0` (line 27) that all 128 threads execute (§4.4): every RMW is before it in causality
//   order (§2.10 C1). out is written by thread 0 only. Race-free (§2.4).
// * Values: nothing orders [R] against the [O]s of threads 5, 42, 79 and 116, so coherence may put thread 5's [O]
//   first and [R] second (every other order of the RMWs is consistent too: they are relaxed and ms, §3.3): mask
//   ends 1082368 (bits 10, 15, 20, without bit 5), and [C] reads that final value (§3.6). So out[0] == 1082400
//   (bits 5, 10, 15, 20) fails in some execution.
#include "host.cuh"

__global__ void reset_then_mark(unsigned* mask, unsigned* out) {
  const int t = threadIdx.x;
  if (t == 0) atomicAnd(mask, 0u);                    // [R] clear the stale mask
  if (t % 37 == 5) atomicOr(mask, 1u << (t % 32));    // [O] bug: may come before [R]
  __syncthreads();                                    // [B]
  if (t == 0) out[0] = *mask;                         // [C]
}

int main() {
  unsigned* mask = device_buffer<unsigned>(1, {4294901760u});
  unsigned* out = device_buffer<unsigned>(1);
  reset_then_mark<<<1, 128>>>(mask, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
