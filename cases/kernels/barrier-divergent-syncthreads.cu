// Divergent __syncthreads(): only the first half of the block reaches the barrier (seed 003, bad_kernel).
//
// ptxmm-launch: --grid 1 --block 256 --arg data=int32[256]=3 --arg out=int32[128] --arg n=256
// ptxmm-expect: race-free
// ptxmm-expect: hang 25
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13):
// * __syncthreads() is `bar.sync 0` (§5.2; in the PTX it stays inside the `tid < 128` branch). A barrier
//   without a thread count waits for every thread of the CTA (§4.4, issue 13), i.e. for all 8 warps; warps
//   4-7 (tid >= 128) skip it and exit, so threads 0-127 wait at [B] (line 25) forever: a hang, in every
//   execution. It is also undefined behaviour by the letter: `bar` is the aligned form and must be executed
//   by all threads of the CTA (§4.4); issue 13 reports that shape as a hang at the barrier.
// * No race: the only cross-thread reads (s[tid + 128] after [B]) are never executed, and the stores before
//   [B] are to distinct slots. So the verdict is the hang alone (exit 1).
// * On hardware the barrier may complete anyway (exited warps can count as arrived) and the GPU run finish;
//   PTX promises neither that nor the values read after it, which is why the model reports the hang.
#include "host.cuh"

__global__ void bad_kernel(const int* data, int* out, int n) {
  int tid = threadIdx.x;
  __shared__ int s[256];
  s[tid] = data[tid] + tid;  // (the seed copies data[tid]; + tid makes every slot distinct)
  if (tid < 128) {
    __syncthreads();  // [B] only half the block calls this
    s[tid] += s[tid + 128];
    out[tid] = s[tid];
  }
}

int main() {
  int* data = device_buffer<int>(256, {3});
  int* out = device_buffer<int>(128);
  bad_kernel<<<1, 256>>>(data, out, 256);
  finish();
  print("out", out, 128, {0, 127});
  return 0;
}
