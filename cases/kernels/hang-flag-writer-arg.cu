// A wait on a flag that only the thread named by a kernel argument sets, launched with a value no producer
// thread has: nobody ever writes the flag (the same kernel with a valid argument is
// hang-flag-writer-arg-fixed.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[32] --arg who=32
// ptxmm-expect: race-free
// ptxmm-expect: hang 37
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline st.release.gpu /
// ld.acquire.gpu, `who` a .param read):
// * Only a producer thread (t < 32) with t == who executes [W] and [S] (lines 33, 34); who = 32 names none, so
//   the flag is never written and keeps its initial 0.
// * The consumers (warp 1) poll it at [P] (line 37) and leave only on a non-zero value: in every execution they
//   read 0 for ever — a hang.
// * No race: data is never written; the consumers' reads [R] never run.
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void handoff(int* data, int* flag, int* out, int who) {
  const int t = threadIdx.x;
  if (t < 32) {  // producer warp: one chosen lane publishes
    if (t == who) {
      *data = 7;                 // [W]
      st_release_gpu(flag, 1);  // [S]
    }
  } else {  // consumer warp
    while (ld_acquire_gpu(flag) == 0) {  // [P]
    }
    out[t - 32] = *data;  // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(32);
  handoff<<<1, 64>>>(data, flag, out, 32);
  finish(5);
  print("out", out, 32, {0, 31});
  return 0;
}
