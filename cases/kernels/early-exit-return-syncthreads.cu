// Early exit before a block barrier: a 2-D block of 8x8 threads works on n = 40 elements and the threads past
// the end return before __syncthreads() (the fix is early-exit-guard-syncthreads.cu).
//
// ptxmm-launch: --grid 1 --block 8,8 --arg in=int32[40]=5,6,7 --arg out=int32[40] --arg n=40
// ptxmm-expect: race-free
// ptxmm-expect: hang 25
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13; PTX checked: the return is a branch to the
// kernel's `ret`, __syncthreads() is `bar.sync 0` after it):
// * Threads with t = y*8 + x >= 40 (t = 40..63: lanes 8..31 of warp 1) return at [E] and never execute [B].
//   `bar.sync 0` has no thread count: it waits for every thread of the CTA, and `bar` is the aligned form that
//   every thread of the CTA must execute (§4.4). Threads 0..39 wait at [B] for arrivals that never come: a
//   divergent aligned barrier, reported as a hang at [B] as in barrier-divergent-syncthreads.cu (on hardware
//   exited threads may count as arrived; PTX does not promise it).
// * No race: before [B] each thread writes only s[t]; the reads after [B] never run in the hanging execution,
//   and in any case s[n-1-t] is read only after the barrier.
#include "host.cuh"

__global__ void reverse_prefix(const int* in, int* out, int n) {
  __shared__ int s[64];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t >= n) return;  // [E] bug: these threads skip the barrier below
  s[t] = in[t];
  __syncthreads();  // [B]
  out[t] = s[n - 1 - t];
}

int main() {
  int* in = device_buffer<int>(40, {5, 6, 7});
  int* out = device_buffer<int>(40);
  reverse_prefix<<<1, dim3(8, 8)>>>(in, out, 40);
  finish(5);
  print("out", out, 40, {37, 38, 39});
  return 0;
}
