// Tree reduction that replaces __syncthreads() by __syncwarp() once 64 elements are left, as code written for
// 64-wide wavefronts does: at stride 32, warp 0 reads the sums warp 1 wrote at stride 64 (seed 003's advice,
// "for the final warp you can use __syncwarp()", applied one step too early).
//
// ptxmm-launch: --grid 1 --block 256 --arg input=int32[256]=3,1,4,1,5,9,2,6 --arg output=int32[1] --arg n=256
// ptxmm-expect: race 35 35 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * The barrier after a step orders that step's writes before the next step's reads. After stride 64 the
//   kernel executes __syncwarp() = `bar.warp.sync -1` (§5.2), which orders only the lanes of one warp (§4.5:
//   encoded as sw between the participants of one warp barrier instance; other warps are not participants).
// * Stride 64: thread 32 + i (warp 1) writes s[32 + i] in [A] (line 35). Stride 32: thread i (warp 0) reads
//   s[i + 32] in [A]. Weak generic accesses of different warps; the only barriers between them are the two
//   warps' own bar.warp.sync instances, so no sw path joins them (§2.8, §2.9): a race, no-synchronisation.
//   Both accesses are on line 35, hence the pair (35, 35).
// * No other pair races: the load, stride 128 and stride 64 are separated by __syncthreads() (bar.sync 0,
//   all 256 threads); from stride 32 on, readers and writers are lanes of warp 0, ordered by its
//   bar.warp.sync (§4.5); within a step thread t only reads s[t + stride] with stride > t and its own s[t].
// * No assertion: the stale value warp 0 may read (the load of s[32 + i]) differs from the right one only
//   where input[96 + i] is non-zero, which this launch's input does not exercise.
#include "host.cuh"

__global__ void block_reduce_sum(const int* input, int* output, int n) {
  __shared__ int s[256];

  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;

  s[tid] = (gid < n) ? input[gid] : 0;
  __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s[tid] += s[tid + stride];  // [A]
    }
    if (stride > 64) {  // bug: the last 64 elements are two warps, not one wavefront
      __syncthreads();
    } else {
      __syncwarp();
    }
  }

  if (tid == 0) {
    output[blockIdx.x] = s[0];
  }
}

int main() {
  int* input = device_buffer<int>(256, {3, 1, 4, 1, 5, 9, 2, 6});
  int* output = device_buffer<int>(1);
  block_reduce_sum<<<1, 256>>>(input, output, 256);
  finish();
  print("output", output, 1, {0});
  return 0;
}
