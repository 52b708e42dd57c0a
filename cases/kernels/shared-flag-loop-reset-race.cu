// The hand-written version of syncthreads-or-drain-loop.cu: a shared "more work" flag that thread 0 clears at
// the top of each round, threads with work set it, and everyone tests it after the barrier. Thread 0 clears it
// for the next round while slower threads still test it for this one.
//
// ptxmm-launch: --grid 1 --block 64 --arg budget=uint32[64]=1,0,3,0,2 --arg rounds=uint32[64]
// ptxmm-expect: race 32 40 no-synchronisation
// ptxmm-expect: race 36 36 no-synchronisation
// ptxmm-expect: hang 33
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared / ld.shared of `more`, two `bar.sync 0`):
// * [S] (line 36): threads 2 and 4 both store 1 to `more` in round 0 (weak st.shared after [B1], before [B2]):
//   conflicting weak writes, not ordered: a race (§2.4; same value does not matter).
// * [T] (line 40, the loop test after [B2] of round k) and [C] (line 32, thread 0's clear in round k+1): thread
//   0 runs [C] after its own [T] and [B2] of round k, but another thread's [T] of round k is after that same
//   [B2] and nothing orders it with thread 0's next [C]: a race. [C] against [S] is ordered by [B1] (both
//   rounds), [S] against [T] by [B2].
// * Hang: in round 0 thread 0 reads 1 at [T] (thread 2's [S] is ordered before it by [B2], and its own next
//   [C] is po-later, §3.6), loops and clears at [C]; thread 63 may read that 0 at [T] (nothing orders the two,
//   so the read is permitted), leave the loop and exit, while thread 0 waits at [B1] of round 1 for a block
//   that never arrives in full: `bar` is aligned and must be executed by every thread of the CTA (§4.4), so
//   this is a hang at [B1] as in barrier-divergent-syncthreads.cu. [B2] cannot be the stuck barrier: every
//   thread that passes [B1] reaches [B2] with no exit in between.
#include "host.cuh"

__global__ void drain_flag(const unsigned* budget, unsigned* rounds) {
  __shared__ int more;
  const unsigned t = threadIdx.x;
  unsigned v = budget[t];
  unsigned r = 1;
  do {
    if (t == 0) more = 0;  // [C]
    __syncthreads();  // [B1]
    if (v > 0) {
      --v;
      more = 1;  // [S]
    }
    ++r;
    __syncthreads();  // [B2]
  } while (more);  // [T]
  rounds[t] = r;
}

int main() {
  unsigned* budget = device_buffer<unsigned>(64, {1, 0, 3, 0, 2});
  unsigned* rounds = device_buffer<unsigned>(64);
  drain_flag<<<1, 64>>>(budget, rounds);
  finish(5);
  print("rounds", rounds, 64, {0, 2, 63});
  return 0;
}
