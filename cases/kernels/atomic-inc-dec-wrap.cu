// atomicInc / atomicDec with wrap-around (a ring-buffer index and a countdown that reloads): 64 threads of two
// CTAs each do one atomicInc(ring, 7) and one atomicDec(down, 4); the final values follow from the wrap rules
// alone, whatever order the RMWs take.
//
// ptxmm-launch: --grid 2 --block 32 --arg ring=uint32[1] --arg down=uint32[1] --assert 'ring[0]==0 && down[0]==1' --observe 'ring[0]' --observe 'down[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe ring[0] 0
// ptxmm-expect: observe down[0] 1
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [I] atom.global.inc.u32 7, [D] atom.global.dec.u32 4,
// both .relaxed.gpu by default, §5.1; results unused):
// * Every access is one of these RMWs ([I], line 24; [D], line 25): strong, .gpu scope containing all 64 threads,
//   so every pair is morally strong (§2.3): race-free (§2.4).
// * Atomicity (§3.3): the RMWs on one location are totally ordered by coherence, each reading its predecessor's
//   value. atom.inc with bound 7 computes (old >= 7) ? 0 : old + 1, a counter modulo 8: after 64 increments from 0,
//   64 mod 8 = 0. atom.dec with bound 4 computes (old == 0 || old > 4) ? 4 : old - 1, a cycle 0 -> 4 -> 3 -> 2 ->
//   1 -> 0 of length 5: after 64 decrements from 0 the value is the one after 64 mod 5 = 4 steps, 1. Both are the
//   only permitted final values.
#include "host.cuh"

__global__ void wrap_counters(unsigned* ring, unsigned* down) {
  atomicInc(ring, 7u);  // [I] next ring slot, wrapping after 7
  atomicDec(down, 4u);  // [D] countdown reloading with 4
}

int main() {
  unsigned* ring = device_buffer<unsigned>(1);
  unsigned* down = device_buffer<unsigned>(1);
  wrap_counters<<<2, 32>>>(ring, down);
  finish();
  print("ring", ring, 1, {0});
  print("down", down, 1, {0});
  return 0;
}
