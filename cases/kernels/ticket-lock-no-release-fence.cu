// ticket-lock-volatile-fenced.cu without the release fence: a holder's counter update and its volatile
// hand-off store are unordered for the next holder, whose acquire fence then has nothing to synchronize with.
//
// ptxmm-launch: --grid 2 --block 2 --arg counter=int32[1] --arg serving=uint32[1] --arg next=uint32[1] --assert 'counter[0]==4'
// ptxmm-expect: race 23 23 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as the fenced version, no membar.gl between the
// counter's st.global [X] and st.volatile [U]):
// * Holder k-1: [X] po [U] (st.volatile = relaxed.sys) with no release fence: no release pattern (§2.5). Its
//   earlier [FA] precedes [X]. Holder k's [FA] is an acquire pattern with nothing to pair with: holders' [X]
//   load/store pairs are weak, conflicting and unordered: a race [X]-[X] (§2.4).
// * Holder k may read the counter value from before holder k-1's store (§3.6 does not forbid it): a lost
//   update, counter[0] < 4 in some execution; the spins still end (the hand-off values are strong and coherent).
#include "host.cuh"

__global__ void ticket_lock_increment(int* counter, unsigned* serving, unsigned* next) {
  const unsigned my = atomicAdd(next, 1u);  // [K]
  while (*(volatile unsigned*)serving != my) {  // [P]
  }
  __threadfence();  // [FA]
  *counter += 1;    // [X]
  // missing: __threadfence() before handing the turn on
  *(volatile unsigned*)serving = my + 1;  // [U]
}

int main() {
  int* counter = device_buffer<int>(1);
  unsigned* serving = device_buffer<unsigned>(1);
  unsigned* next = device_buffer<unsigned>(1);
  ticket_lock_increment<<<2, 2>>>(counter, serving, next);
  finish();
  print("counter", counter, 1, {0});
  print("serving", serving, 1, {0});
  return 0;
}
