// The kernel of hang-flag-writer-arg.cu launched with who = 5, a producer lane: lane 5 publishes the flag and the
// consumers' wait ends.
//
// ptxmm-launch: --grid 1 --block 64 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[32] --arg who=5 --assert 'out[0]==7 && out[31]==7'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline st.release.gpu /
// ld.acquire.gpu, `who` a .param read):
// * Lane 5 (who = 5) executes [W] (line 32) and [S] (line 33, st.release.gpu). The consumers' poll [P]
//   (line 36, ld.acquire.gpu) is morally strong with [S] (.gpu, §2.3), so the write is eventually visible to
//   it (ptx-core.cat `eventually-visible`): under fair progress warp 1's loops end.
// * [W] po [S] (rp1) obs [P] reading 1 (ap1) po [R] (line 38): sw (§2.8 rule 4), causality order (§2.10): no
//   race, and every [R] reads 7: out[0] = out[31] = 7.
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
  handoff<<<1, 64>>>(data, flag, out, 5);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
