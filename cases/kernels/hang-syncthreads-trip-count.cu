// A __syncthreads() inside a loop whose trip count differs per thread: warp 0 runs one round, warp 1 two, so
// warp 1's second round waits at the block barrier after warp 0 has left the loop and exited (the fix is
// hang-syncthreads-trip-count-fixed.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64]
// ptxmm-expect: race-free
// ptxmm-expect: hang 29
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13; NOTES.md on barriers; PTX: `bar.sync 0` in the
// loop body, the trip count `1 + tid / 32` computed per thread):
// * Round 0: all 64 threads reach [B] (line 29): generation 0 of barrier 0 completes (§4.4). Warp 0 then leaves
//   the loop, stores out[t] and exits; warp 1 runs round 1 and reaches [B] again.
// * Round 1: `bar.sync 0` has no thread count, so it waits for every non-exited thread of the CTA; warp 0 has
//   exited, and by the exit rule (NOTES.md) the barrier is released. But `bar` is the aligned form: every
//   thread of the CTA must execute the same barrier instruction, and warp 0 never executes this generation of
//   it — undefined behaviour, which ptxmm reports as a finding at the barrier's line (like
//   barrier-divergent-syncthreads.cu, `hang LINE`), never as a pass.
// * No race: each thread writes only its own slot s[t] and out[t] and reads only s[t].
#include "host.cuh"

__global__ void uneven_rounds(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  const int rounds = 1 + t / 32;  // bug: warp 0 runs one round, warp 1 two
  s[t] = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] += r + 1;
    __syncthreads();  // [B]
  }
  out[t] = s[t];
}

int main() {
  int* out = device_buffer<int>(64);
  uneven_rounds<<<1, 64>>>(out);
  finish(5);
  print("out", out, 64, {0, 63});
  return 0;
}
