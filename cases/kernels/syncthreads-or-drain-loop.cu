// A loop that runs while any thread of the block still has work, decided by __syncthreads_or(): each thread
// counts its own budget down and the whole block leaves together (the buggy shared-flag version is
// shared-flag-loop-reset-race.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg budget=uint32[64]=1,0,3,0,2 --arg rounds=uint32[64] --assert 'rounds[0]==4 && rounds[63]==4 && rounds[2]==4'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __syncthreads_or is `bar.red.or.pred` on barrier
// 0, the loop's exit branch takes its result):
// * `bar.red.or` is a block barrier whose result is the OR of every thread's predicate (§4.4): all 64 threads
//   get the same value each round, so they run the same rounds and every generation is filled by all threads.
// * Budgets 1,0,3,0,2,0...: the predicate v > 0 is true in rounds 0,1,2 (thread 2 has 3) and false in round 3;
//   every thread calls [R] 4 times and stores rounds = 4 at [W]; no thread waits for ever.
// * No shared or global location is written by two threads or read by another: race-free (§2.4).
#include "host.cuh"

__global__ void drain(const unsigned* budget, unsigned* rounds) {
  const unsigned t = threadIdx.x;
  unsigned v = budget[t];
  unsigned r = 1;
  while (__syncthreads_or(v > 0)) {  // [R]
    if (v > 0) --v;
    ++r;
  }
  rounds[t] = r;  // [W]
}

int main() {
  unsigned* budget = device_buffer<unsigned>(64, {1, 0, 3, 0, 2});
  unsigned* rounds = device_buffer<unsigned>(64);
  drain<<<1, 64>>>(budget, rounds);
  finish();
  print("rounds", rounds, 64, {0, 2, 63});
  return 0;
}
