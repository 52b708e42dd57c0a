// The fix of hang-named-barrier-short-count.cu: named barrier 1 counts the 96 threads that use it.
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[96] --assert 'out[0]==1095 && out[95]==1000 && out[40]==1055'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: inline `bar.sync 1, 96`):
// * The three warps' arrivals at [B] (line 23) are exactly the 96 threads the count asks for: generation 0
//   completes (§4.4) and no warp waits for ever.
// * [W] (line 22) po bar sw bar po [R] (line 24) for every pair of threads (§2.8 rule 2, §2.10): no race;
//   out[t] = s[95 - t] = 1095 - t: out[0] = 1095, out[95] = 1000, out[40] = 1055.
#include "host.cuh"

__device__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__global__ void three_warps(int* out) {
  __shared__ int s[96];
  const int t = threadIdx.x;
  s[t] = 1000 + t;            // [W]
  named_barrier_sync(1, 96);  // [B] every thread that uses barrier 1
  out[t] = s[95 - t];         // [R]
}

int main() {
  int* out = device_buffer<int>(96);
  three_warps<<<1, 96>>>(out);
  finish();
  print("out", out, 96, {0, 40, 95});
  return 0;
}
