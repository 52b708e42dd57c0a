// Tree reduction in shared memory with __syncthreads() after the load and after every step (seed 003,
// block_reduce_sum; int instead of float so that the sum can be asserted).
//
// ptxmm-launch: --grid 2 --block 128 --arg input=int32[256]=3,1,4,1,5,9,2,6 --arg output=int32[2] --arg n=256 --assert 'output[0]==31 && output[1]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * Conflicting pairs: the load [L] (line 27) of s[tid] against the step reads of s[tid + stride] in [A]
//   (line 33), and the step writes of s[tid] in [A] against the next step's reads. Every one is separated by
//   a `bar.sync 0` (§5.2) that all 128 threads of the CTA execute (the barrier is outside the `if`): arrive
//   sw wait (§2.8 rule 2), so writer po bar sw bar po reader is base causality, generic, same address:
//   causality order (§2.10 C1). Within one step thread t writes s[t] and reads s[t + stride] >= stride > t,
//   and never reads another thread's s[t'] with t' < stride: no conflict inside a step.
// * [O] (line 40) reads s[0], thread 0's own last write. No race; each step reads the previous step's sums
//   (Causality, §3.6), so output[b] is the block's sum: 3+1+4+1+5+9+2+6 = 31 for block 0, 0 for block 1.
#include "host.cuh"

__global__ void block_reduce_sum(const int* input, int* output, int n) {
  __shared__ int s[128];  // (the seed: 256 floats for 256-thread blocks)

  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  // Load from global to shared (with bounds check)
  s[tid] = (gid < n) ? input[gid] : 0;  // [L]
  __syncthreads();

  // Tree reduction in shared memory
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];  // [A]
    }
    __syncthreads();  // All threads hit this regardless of branch
  }

  // Thread 0 writes the block's partial sum
  if (tid == 0) {
    output[blockIdx.x] = s[0];  // [O]
  }
}

int main() {
  int* input = device_buffer<int>(256, {3, 1, 4, 1, 5, 9, 2, 6});
  int* output = device_buffer<int>(2);
  block_reduce_sum<<<2, 128>>>(input, output, 256);
  finish();
  print("output", output, 2, {0, 1});
  return 0;
}
