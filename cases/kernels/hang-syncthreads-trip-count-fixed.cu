// The fix of hang-syncthreads-trip-count.cu: every thread runs the same number of rounds (the block's largest)
// and only the work is guarded by the thread's own count, so every round's barrier is reached by the whole
// block.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --assert 'out[0]==3 && out[31]==34 && out[32]==34 && out[63]==65'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: `bar.sync 0` in a loop of two rounds for every thread):
// * Both rounds' [B] (line 29) are reached by all 64 threads: each generation completes (§4.4), no thread
//   waits for ever and the aligned barrier is executed by the whole CTA.
// * Round r: the threads with r < rounds store their slot s[t] ([W], line 28); after the round's first
//   barrier every thread reads its neighbour's slot s[t ^ 32] ([R], line 30). [W] po bar sw bar po [R] of the
//   same round (§2.8 rule 2, §2.10); [R] of round 0 po (the round's second barrier) sw ... po [W] of round 1.
//   Every conflicting pair is in causality order: no race.
// * Values: round 0 every thread stores s[t] = 1 and reads its neighbour's 1; round 1 only warp 1 stores
//   s[t] = 2, so warp 0 reads 2 and warp 1 reads 1. acc = t + 1 + that: out[0] = 3, out[31] = 34,
//   out[32] = 34, out[63] = 65.
#include "host.cuh"

__global__ void even_rounds(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  const int rounds = 1 + t / 32;  // this thread's share of the work
  int acc = t;
  for (int r = 0; r < 2; ++r) {  // the block's largest count: every thread runs every round
    if (r < rounds) s[t] = r + 1;  // [W]
    __syncthreads();              // [B]
    acc += s[t ^ 32];             // [R]
    __syncthreads();
  }
  out[t] = acc;
}

int main() {
  int* out = device_buffer<int>(64);
  even_rounds<<<1, 64>>>(out);
  finish();
  print("out", out, 64, {0, 31, 32, 63});
  return 0;
}
