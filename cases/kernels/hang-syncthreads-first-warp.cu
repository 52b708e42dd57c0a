// A __syncthreads() inside `if (threadIdx.x < 32)` in a two-warp block whose second warp does not exit but waits
// for a flag the first warp sets after the barrier: a cycle of waits (the fix is
// hang-syncthreads-first-warp-fixed.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --arg flag=int32[1]
// ptxmm-expect: race-free
// ptxmm-expect: hang 39
// ptxmm-expect: hang 43
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; NOTES.md on barriers; PTX:
// __syncthreads() is `bar.sync 0`, the helpers are inline st.release.gpu / ld.acquire.gpu):
// * [B] (line 39) is `bar.sync 0` without a thread count: its generation completes when every non-exited thread
//   of the CTA has arrived (§4.4). Warp 1 (threads 32-63) never reaches [B] and never exits: it polls the flag
//   at [P] (line 43). So generation 0 never completes and warp 0 waits at [B] for ever.
// * The flag is written only by [S] (thread 0, after [B]), which never runs; with no write of 1 the poll [P]
//   reads the initial 0 for ever: warp 1 spins at [P] for ever. Both lines hang, in every execution. (That
//   warp 0 reaches the aligned `bar.sync` while warp 1 does not is also undefined behaviour, §4.4; the hang
//   does not depend on it — no thread exits to release the barrier.)
// * No race: the only accesses that run are each thread's store to its own slot s[t] before [B]; every read
//   of another thread's slot comes after [B] or [P], which never complete.
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void first_warp_barrier(int* out, int* flag) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = 10 + t;
  if (t < 32) {
    __syncthreads();  // [B] bug: only warp 0 reaches the block barrier
    out[t] = s[t + 32];
    if (t == 0) st_release_gpu(flag, 1);  // [S]
  } else {
    while (ld_acquire_gpu(flag) == 0) {  // [P]
    }
    out[t] = s[t - 32];
  }
}

int main() {
  int* out = device_buffer<int>(64);
  int* flag = device_buffer<int>(1);
  first_warp_barrier<<<1, 64>>>(out, flag);
  finish(5);
  print("out", out, 64, {0, 63});
  return 0;
}
