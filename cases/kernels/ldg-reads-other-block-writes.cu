// __ldg (ld.global.nc) of a buffer that ANOTHER block of the same launch writes: the non-coherent path is only
// defined for data that is read-only for the whole kernel, so the launch is outside the memory model and ptxmm
// refuses it (exit 2) instead of giving a verdict. The fix is a plain (or acquire) load after proper
// synchronisation, e.g. flag-cuda-atomic-release-acquire.cu.
//
// ptxmm-launch: --grid 2 --block 32 --arg buf=int32[32] --arg out=int32[32]
// ptxmm-expect: error 23 ld.global.nc (or ldu) reads memory that some thread of the launch writes
// ptxmm-expect: exit 2
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [W] st.global.u32 by CTA 0, [N] ld.global.nc.u32 by
// CTA 1):
// * PTX ISA (ld.global.nc): the non-coherent load may be used only on data that is read-only for the lifetime of
//   the kernel; buf is written by CTA 0 ([W], line 21) while CTA 1 reads it through __ldg ([N], line 23). The model
//   (§4.11) gives no semantics to such a load, so no race/assert verdict can be derived: the expected answer is
//   ptxmm's located refusal at [N].
#include "host.cuh"

__global__ void produce_consume(int* buf, int* out) {
  const int t = threadIdx.x;
  if (blockIdx.x == 0) {
    buf[t] = t + 1;  // [W]
  } else {
    out[t] = __ldg(&buf[t]);  // [N] non-coherent read of data block 0 writes
  }
}

int main() {
  int* buf = device_buffer<int>(32);
  int* out = device_buffer<int>(32);
  produce_consume<<<2, 32>>>(buf, out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
