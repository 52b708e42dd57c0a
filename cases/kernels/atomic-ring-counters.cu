// Wrapping counters at 512 threads: 4 CTAs of 128 threads each advance a ring index with atomicInc(head, 9) (a
// ring of 10 slots), count down a credit with atomicDec(credits, 99) (reloading at 100) and raise a flag with
// atomicExch(flag, 1). One bound per counter and one exchanged value: the final values follow from the count of
// RMWs alone, whatever their order.
//
// ptxmm-launch: --grid 4 --block 128 --arg head=uint32[1]=3 --arg credits=uint32[1] --arg flag=uint32[1] --assert 'head[0]==5 && credits[0]==88 && flag[0]==1' --observe 'head[0]' --observe 'credits[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe head[0] 5
// ptxmm-expect: observe credits[0] 88
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [I] atom.global.inc.u32 9, [D] atom.global.dec.u32 99,
// [E] atom.global.exch.b32 1, all .relaxed.gpu by default, §5.1; results unused):
// * Every access is one of these RMWs ([I], line 24; [D], line 25; [E], line 26) of all 512 threads: strong, .gpu
//   scope containing every thread, so every pair is morally strong (§2.3): race-free (§2.4).
// * Atomicity (§3.3): the RMWs of one word are totally ordered by coherence, each reading its predecessor. All
//   [I] apply the same function inc_9(x) = (x >= 9) ? 0 : x+1, which on 0..9 is x -> (x+1) mod 10: from 3, 512
//   increments give (3 + 512) mod 10 = 5. All [D] apply dec_99(x) = (x == 0 || x > 99) ? 99 : x-1, on 0..99
//   x -> (x-1) mod 100: from 0, (0 - 512) mod 100 = 88. Every [E] writes 1. Only these final values are permitted.
#include "host.cuh"

__global__ void counters(unsigned* head, unsigned* credits, unsigned* flag) {
  atomicInc(head, 9u);     // [I]
  atomicDec(credits, 99u); // [D]
  atomicExch(flag, 1u);    // [E]
}

int main() {
  unsigned* head = device_buffer<unsigned>(1, {3});
  unsigned* credits = device_buffer<unsigned>(1);
  unsigned* flag = device_buffer<unsigned>(1);
  counters<<<4, 128>>>(head, credits, flag);
  finish();
  print("head", head, 1, {0});
  print("credits", credits, 1, {0});
  print("flag", flag, 1, {0});
  return 0;
}
