// The fix of atomic-or-reset-race.cu: thread 0 resets the stale mask with atomicAnd(mask, 0), __syncthreads(),
// then the threads whose index says so mark their bit with atomicOr; after a second __syncthreads() thread 0
// copies the mask out. One CTA of 128 threads.
//
// ptxmm-launch: --grid 1 --block 128 --arg mask=uint32[1]=4294901760 --arg out=uint32[1] --assert 'out[0]==1082400' --observe 'out[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[0] 1082400
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [R] atom.global.and.b32 0 by thread 0, bar.sync 0, [O]
// atom.global.or.b32 by t % 37 == 5 (t = 5, 42, 79, 116: bits 5, 10, 15, 20), both .relaxed.gpu (§5.1), bar.sync 0,
// [C] ld.global.u32 and st.global.u32 by thread 0):
// * mask: [R] (line 25) precedes every [O] (line 27) through the first `bar.sync 0` (line 26), and every RMW
//   precedes [C] (line 29) through the second (line 28); both barriers are executed by all 128 threads (§4.4):
//   causality order (§2.10 C1). The [O]s are strong .gpu RMWs, pairwise morally strong (§2.3). Race-free (§2.4).
// * Values: [R] is coherence-after the initial 0xffff0000 and reads it (§3.1, §3.6), writing 0; every [O] is
//   coherence-after [R] (Coherence, §3.1), the [O]s are totally ordered, each reading its predecessor (§3.3), and
//   or of fixed bits commutes: mask ends with bits 5, 10, 15, 20 = 32 + 1024 + 32768 + 1048576 = 1082400 in every
//   order, which [C] reads (§3.6).
#include "host.cuh"

__global__ void reset_then_mark(unsigned* mask, unsigned* out) {
  const int t = threadIdx.x;
  if (t == 0) atomicAnd(mask, 0u);                    // [R] clear the stale mask
  __syncthreads();                                    // [B1] the fix
  if (t % 37 == 5) atomicOr(mask, 1u << (t % 32));    // [O]
  __syncthreads();                                    // [B2]
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
