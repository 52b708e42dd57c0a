// Ticket lock: each thread draws a ticket with atomicAdd, spins on a volatile now_serving until it is its
// turn, fences, updates a plain counter, fences, and passes the turn on with a volatile store (the bug without
// the release fence is ticket-lock-no-release-fence.cu).
//
// ptxmm-launch: --grid 2 --block 2 --arg counter=int32[1] --arg serving=uint32[1] --arg next=uint32[1] --assert 'counter[0]==4 && serving[0]==4 && next[0]==4'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.global.add.u32 [K], ld.volatile.global.u32 in
// the spin [P], membar.gl [FA] and [FR], ld/st.global of the counter [X], st.volatile.global.u32 [U]):
// * Tickets are 0..3, one each (atomicity of the ms .gpu RMWs, §3.3). The holder of ticket k waits until it
//   reads k at [P]; only the holder of k-1 writes k (at [U]), after its own [X].
// * Holder k-1: [X] po [FR] (fence.sc) po [U] (strong st.volatile): release pattern. Holder k: [P] (strong
//   ld.volatile) reading k from [U], po [FA]: acquire pattern; fences ms: FR sw FA (§2.8 rule 4), so every
//   pair of critical sections is in causality order (chained through the holders in between): no race, and
//   each [X] reads the previous one's value (§3.6): counter = 4, serving = 4, next = 4.
// * The spins end under fair progress: ticket 0 enters at once (serving starts 0), and each holder hands on.
#include "host.cuh"

__global__ void ticket_lock_increment(int* counter, unsigned* serving, unsigned* next) {
  const unsigned my = atomicAdd(next, 1u);  // [K]
  while (*(volatile unsigned*)serving != my) {  // [P]
  }
  __threadfence();  // [FA]
  *counter += 1;    // [X]
  __threadfence();  // [FR]
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
