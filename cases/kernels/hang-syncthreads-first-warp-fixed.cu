// The fix of hang-syncthreads-first-warp.cu: the __syncthreads() moved out of the branch, so both warps reach
// it; warp 0 then sets the flag warp 1 waits for.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --arg flag=int32[1] --assert 'out[0]==42 && out[31]==73 && out[32]==10 && out[63]==41'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: `bar.sync 0`, inline
// st.release.gpu / ld.acquire.gpu):
// * Every thread reaches [B] (line 34), so generation 0 completes (§4.4). Thread 0 then makes [S]
//   (st.release.gpu flag, 1); [P] (ld.acquire.gpu, same location, .gpu scope, one CTA) is morally strong with
//   it (§2.3), so the write is eventually visible to the poll (ptx-core.cat `eventually-visible`) and warp 1's
//   loop at [P] (line 39) ends: the kernel terminates under fair progress.
// * Every slot s[t] is stored before [B] and read after it by another thread: store po bar sw bar po load
//   (§2.8 rule 2, §2.10), no race. out[t] is written once per thread.
// * Values: s[t] = 10 + t, so out[0] = s[32] = 42, out[31] = s[63] = 73, out[32] = s[0] = 10, out[63] = 41.
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
  __syncthreads();  // [B] every thread of the block
  if (t < 32) {
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
  finish();
  print("out", out, 64, {0, 31, 32, 63});
  return 0;
}
