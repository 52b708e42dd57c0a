// The fix of hang-cross-cta-cyclic-wait.cu: each block publishes its value and flag first and then waits for
// the other's, so neither wait depends on itself.
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[2] --arg flags=int32[2] --arg out=int32[2] --assert 'out[0]==11 && out[1]==10'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline ld.acquire.gpu /
// st.release.gpu):
// * Each [S] (line 33) is made unconditionally before its thread's poll [P] (line 34). The poll of the other
//   block's flag is morally strong with its [S] (both .gpu, §2.3), so that write is eventually visible to it
//   (ptx-core.cat `eventually-visible`): under fair progress both loops end.
// * [W] (line 32) po [S] (st.release.gpu, rp1) obs [P] (ld.acquire.gpu reading 1, ap1) po [R] (line 36):
//   sw (§2.8 rule 4), so [W] is in causality order before the other block's [R] (§2.10): no race, and [R]
//   reads it (§3.6): out[0] = data[1] = 11, out[1] = data[0] = 10.
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
  data[me] = 10 + me;            // [W]
  st_release_gpu(&flags[me], 1);  // [S] publish first
  while (ld_acquire_gpu(&flags[other]) == 0) {  // [P] then wait
  }
  out[me] = data[other];  // [R]
}

int main() {
  int* data = device_buffer<int>(2);
  int* flags = device_buffer<int>(2);
  int* out = device_buffer<int>(2);
  exchange<<<2, 32>>>(data, flags, out);
  finish();
  print("out", out, 2, {0, 1});
  return 0;
}
