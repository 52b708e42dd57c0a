// 1024-thread reduction (two elements per thread) that uses __syncthreads() while other warps read and
// __syncwarp() for the last warp, as seed 003 advises, done right: the scale case of the corpus (one CTA of
// 1024 threads) and the fixed sibling of reduce-wavefront64-syncwarp.cu.
//
// ptxmm-launch: --grid 1 --block 1024 --arg input=int32[2048]=3,1,4,1,5,9,2,6 --arg output=int32[1] --assert 'output[0]==31'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * [L] (line 26) stores s[t]; `bar.sync 0` (§5.2) follows, executed by all 1024 threads.
// * The barrier after stride S must order the writes of threads S/2..S-1 (s[S/2..S-1], written in [A], line
//   31) before the reads of threads 0..S/2-1 at stride S/2. For S >= 64 the writers and readers are in
//   different warps and the kernel executes __syncthreads() (sw between all threads of the CTA, §2.8 rule 2);
//   for S <= 32 writers and readers are lanes of warp 0 and __syncwarp() = `bar.warp.sync -1` orders them
//   (§4.5: sw between the participants of one warp barrier instance; reading A8). Each pair is therefore in
//   base causality, generic and same address: causality order (§2.10 C1), no race.
// * Within a step thread t reads s[t + S] (>= S > t) and its own s[t]: no conflict. [O] (line 41) reads s[0],
//   thread 0's own write. So output[0] = 3+1+4+1+5+9+2+6 = 31 (the other 2040 inputs are 0).
#include "host.cuh"

__global__ void reduce_two_per_thread(const int* input, int* output) {
  __shared__ int s[1024];

  const int tid = threadIdx.x;
  s[tid] = input[tid] + input[tid + blockDim.x];  // [L]
  __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];  // [A]
    }
    if (stride > 32) {  // another warp reads what this step wrote
      __syncthreads();
    } else {  // only lanes of warp 0 are left
      __syncwarp();
    }
  }

  if (tid == 0) {
    output[0] = s[0];  // [O]
  }
}

int main() {
  int* input = device_buffer<int>(2048, {3, 1, 4, 1, 5, 9, 2, 6});
  int* output = device_buffer<int>(1);
  reduce_two_per_thread<<<1, 1024>>>(input, output);
  finish();
  print("output", output, 1, {0});
  return 0;
}
