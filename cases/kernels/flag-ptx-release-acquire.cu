// Producer/consumer across blocks, method 3 of seed 000: inline-PTX st.release.gpu / ld.acquire.gpu helpers
// (the seed's DeepEP-style utils).
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[1] --arg flag=int32[1] --arg result=int32[1] --assert 'result[0]==42'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: the asm text verbatim, ld.acquire.gpu.global.s32 and
// st.release.gpu.global.s32, on the generic 64-bit pointers the helpers receive — a global address is valid
// for the .global state space):
// * [W] (line 30, weak store of data[0]) po [S] (st.release.gpu, rp1) ... [P] (ld.acquire.gpu, ap1) po [R]
//   (line 35, weak load). When [P] reads 1: [S] obs [P] (ms), [S] sw [P] (§2.8 rule 4), [W] in causality order
//   before [R] (§2.10 C1): no race, result[0] = 42. The flag accesses are strong and ms.
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void handoff(int* data, int* flag, int* result) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    *data = 42;              // [W]
    st_release_gpu(flag, 1);  // [S]
  } else {  // consumer
    while (ld_acquire_gpu(flag) == 0) {  // [P]
    }
    *result = *data;  // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* result = device_buffer<int>(1);
  handoff<<<2, 32>>>(data, flag, result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
