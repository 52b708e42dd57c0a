// The CAS-based floating-point atomic max of seed 003 with the first read made atomic
// (cuda::atomic_ref<int, thread_scope_device>::load(relaxed)): race-free.
//
// ptxmm-launch: --grid 2 --block 2 --arg vals=float32[4]=1.5,-2,7.25,3 --arg result=float32[1]
// ptxmm-expect: race-free
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [P] (line 20) is ld.relaxed.gpu.b32, [C]
// (line 24) atom.global.cas.b32, .relaxed.gpu):
// * Every access of the word is a strong .gpu operation of one GPU: pairwise morally strong (§2.3), so no
//   race. Successful CASes are linearized (§3.3); a CAS that fails reads the current value and retries.
#include "host.cuh"

#include <cuda/atomic>

__global__ void max_kernel(const float* vals, float* result) {
  const float val = vals[blockIdx.x * blockDim.x + threadIdx.x];
  int* addr_as_int = reinterpret_cast<int*>(result);
  cuda::atomic_ref<int, cuda::thread_scope_device> word(*addr_as_int);
  int old = word.load(cuda::std::memory_order_relaxed);  // [P]
  int assumed;
  do {
    assumed = old;
    old = atomicCAS(addr_as_int, assumed, __float_as_int(fmaxf(__int_as_float(assumed), val)));  // [C]
  } while (assumed != old);
}

int main() {
  float* vals = device_buffer<float>(4, {1.5f, -2.0f, 7.25f, 3.0f});
  float* result = device_buffer<float>(1);
  max_kernel<<<2, 2>>>(vals, result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
