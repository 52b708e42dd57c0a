// Floating-point atomic max built from atomicCAS (seed 003, atomicMaxFloat), written into the kernel: the loop
// starts from a plain read of the word that other threads update with atomicCAS (the fix is
// atomic-max-float-atomic-read.cu).
//
// ptxmm-launch: --grid 2 --block 2 --arg vals=float32[4]=1.5,-2,7.25,3 --arg result=float32[1]
// ptxmm-expect: race 23 27 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [P] (line 23) is a plain ld.global.u32,
// [C] (line 27) atom.global.cas.b32, .relaxed.gpu by default, §1.5):
// * [P] of one thread and a successful [C] of another access the same word, one writes, [P] is weak: not
//   morally strong (§2.3), and nothing orders them (the CAS loop synchronizes nothing): a race,
//   no-synchronisation. The seed's comment calls atomicCAS "the building block for any atomic operation"; the
//   first read must be atomic too.
// * The CAS loop itself is correct: a stale starting value only costs an iteration (the CAS fails and returns
//   the current value), and the successful CASes are ms RMWs, linearized (§3.3). No assertion: the values
//   are floats, which ptxmm may treat as opaque.
#include "host.cuh"

__global__ void max_kernel(const float* vals, float* result) {
  const float val = vals[blockIdx.x * blockDim.x + threadIdx.x];
  int* addr_as_int = reinterpret_cast<int*>(result);  // seed 003: atomicMaxFloat(result, val)
  int old = *addr_as_int;  // [P]
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
