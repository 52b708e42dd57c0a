// Warp-shuffle reduction: each warp sums its 32 inputs with __shfl_down_sync, then lane 0 of every warp adds
// the warp's sum to the result with one atomicAdd (the fix; the bug is warp-shuffle-reduce-plain-add.cu).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=1,2,3,4,5,6,7,8,9,10 --arg out=int32[1] --assert 'out[0]==55' --observe 'out[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[0] 55
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32, shfl.sync.down.b32 with mask -1
// (register exchange, no memory event), [A] atom.global.add.u32 = .relaxed.gpu, §5.1):
// * [L] (line 24) only reads `in`, which no thread writes: no conflict. The shuffles move register values between
//   the lanes of one warp; they are not memory accesses (§2.1), so only [A] (line 29) touches memory that is
//   written.
// * The four [A]s (lane 0 of the two warps of each of the two CTAs) are atom.add.relaxed.gpu on out[0]: strong,
//   .gpu scope containing every thread of the launch, so every pair is morally strong (§2.3) and not a data race
//   (§2.4).
// * Atomicity (§3.3): the four RMWs are totally ordered by coherence and each reads its predecessor, so out[0]
//   ends as the sum of the warp sums: warp 0 of CTA 0 sums in[0..31] = 1+..+10 = 55, the others 0. The only
//   permitted final value is 55.
#include "host.cuh"

__global__ void warp_sum(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];  // [L]
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(out, v);  // [A] one atomic per warp
  }
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  int* out = device_buffer<int>(1);
  warp_sum<<<2, 64>>>(in, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
