// Tree reduction missing the __syncthreads() between the load into shared memory and the first step: the
// seed's 8-thread trace (seed 003, block_reduce_sum) with that one barrier deleted.
//
// ptxmm-launch: --grid 1 --block 8 --arg input=int32[8]=3,1,4,1,5,9,2,6 --arg output=int32[1] --arg n=8 --assert 'output[0]==31'
// ptxmm-expect: race 29 34 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * Step 1 (stride 4): thread t < 4 reads s[t + 4] in [A] (line 34), which thread t + 4 stores in [L]
//   (line 29). Both are weak generic accesses of different threads (§1.6) and nothing orders them: the first
//   `bar.sync 0` comes after the step (§2.8 rule 2 needs the store before an arrive the reader waits on).
//   Not morally strong (weak, §2.3), not in causality order: a race, kind no-synchronisation (ptx-core.cat
//   race-unsync: at least one weak access).
// * Every later step is separated by a bar.sync executed by all threads, as in reduce-block-sum.cu: no other
//   pair races. [A] also writes s[t], read later by other threads only after a barrier.
// * Assertion: the racing read may return the value s[t + 4] held before the store (no causality, §3.6
//   forbids nothing), so thread 0 can add a stale 0 or unknown initial value instead of 5, 9, 2 or 6:
//   output[0] == 31 is not guaranteed, whether uninitialised shared memory reads as 0 or as an unknown
//   constant (§1.2 W0), because the correct values are all non-zero.
#include "host.cuh"

__global__ void block_reduce_sum(const int* input, int* output, int n) {
  __shared__ int s[256];

  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  s[tid] = (gid < n) ? input[gid] : 0;  // [L]
  // missing: __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];  // [A]
    }
    __syncthreads();
  }

  if (tid == 0) {
    output[blockIdx.x] = s[0];
  }
}

int main() {
  int* input = device_buffer<int>(8, {3, 1, 4, 1, 5, 9, 2, 6});
  int* output = device_buffer<int>(1);
  block_reduce_sum<<<1, 8>>>(input, output, 8);
  finish();
  print("output", output, 1, {0});
  return 0;
}
