// Two blocks each wait for the other's flag before setting their own: a cycle of waits across CTAs (the fix,
// hang-cross-cta-cyclic-wait-fixed.cu, publishes first and waits second).
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[2] --arg flags=int32[2] --arg out=int32[2]
// ptxmm-expect: race-free
// ptxmm-expect: hang 31
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline ld.acquire.gpu /
// st.release.gpu):
// * Thread 0 of block b polls flags[1 - b] at [P] (line 31) before it stores flags[b] at [S] (line 34). The
//   only writes of 1 to the flags are the two [S], each after its thread's loop at [P]: neither loop can end
//   before the other has, so in every execution both threads read 0 at [P] for ever — a hang, and no
//   scheduling or memory fairness helps (no write of 1 is ever made).
// * No race: [W] and [R] (lines 33, 35) are never both executed; the flag accesses are strong .gpu (ms).
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void exchange(int* data, int* flags, int* out) {
  if (threadIdx.x != 0) return;
  const int me = blockIdx.x, other = 1 - blockIdx.x;
  while (ld_acquire_gpu(&flags[other]) == 0) {  // [P] bug: wait for the other block first
  }
  data[me] = 10 + me;            // [W]
  st_release_gpu(&flags[me], 1);  // [S]
  out[me] = data[other];         // [R]
}

int main() {
  int* data = device_buffer<int>(2);
  int* flags = device_buffer<int>(2);
  int* out = device_buffer<int>(2);
  exchange<<<2, 32>>>(data, flags, out);
  finish(5);
  print("out", out, 2, {0, 1});
  return 0;
}
