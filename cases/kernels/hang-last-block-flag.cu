// Every block but the last spins on a flag that only the LAST block sets. ptxmm judges hangs under fair progress
// of every launched thread (README "Kernels", issue 13's default), i.e. as if all blocks of the launch are
// resident: here the kernel terminates. On a GPU, a launch with more blocks than can be resident at once may
// never schedule the last block while the earlier ones spin (occupancy-bound execution) — a hang PTX's fair
// model does not see; this launch (4 blocks of 32 threads) fits on any sm_90 GPU.
//
// ptxmm-launch: --grid 4 --block 32 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[4] --assert 'out[0]==9 && out[2]==9 && out[3]==9'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline st.release.gpu /
// ld.acquire.gpu):
// * Block 3's lane 0 makes [W] (line 35) and [S] (line 36, st.release.gpu) unconditionally, without waiting
//   for anything; under fair progress it runs. The polls [P] (line 38, ld.acquire.gpu) of blocks 0-2 are
//   morally strong with [S] (.gpu, §2.3), so [S] is eventually visible to them (ptx-core.cat
//   `eventually-visible`): every loop ends.
// * [W] po [S] (rp1) obs [P] reading 1 (ap1) po [R] (line 41): sw (§2.8 rule 4), no race; out[b] = 9 for every
//   block (block 3 reads its own write).
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void wait_for_last(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == gridDim.x - 1) {
    *data = 9;                 // [W]
    st_release_gpu(flag, 1);  // [S]
  } else {
    while (ld_acquire_gpu(flag) == 0) {  // [P]
    }
  }
  out[blockIdx.x] = *data;  // [R]
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(4);
  wait_for_last<<<4, 32>>>(data, flag, out);
  finish();
  print("out", out, 4, {0, 2, 3});
  return 0;
}
