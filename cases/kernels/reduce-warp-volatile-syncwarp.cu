// The warp-synchronous tail of a shared-memory reduction done right for independent thread scheduling: each step
// reads into a register, __syncwarp(), writes, __syncwarp() (the CUDA 9 advice; the bug is
// reduce-warp-volatile-nosync.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3,4,5,6,7,8 --arg out=int32[1] --assert 'out[0]==36'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, bar.sync 0, per step [R]
// ld.volatile.shared.u32, bar.warp.sync -1, [W] st.volatile.shared.u32, bar.warp.sync -1):
// * [S] (line 37) is ordered before every access of warp 0 by `bar.sync 0` executed by all 64 threads (§4.4,
//   §2.8 rule 2).
// * Each step of the helper (called at line 40) is: lane t reads s[t] and s[t + d] ([R], line 27), __syncwarp(),
//   writes s[t] ([W], line 29), __syncwarp(). bar.warp.sync -1 orders the 32 lanes (§4.5: sw from every
//   participant's arrive to every participant's wait of the same instance; reading A8). So every read of a step is
//   in causality order before every write of the same step (first __syncwarp), and every write before every read
//   of the next step (second __syncwarp): no unordered conflicting pair; race-free (the accesses are volatile too,
//   which does not matter here).
// * With each read ordered after the previous step's writes, and the writes that it must not see ordered after
//   it, every read returns exactly the previous step's value (§3.6 Causality, §3.1 Coherence): out[0] (line 43)
//   = 1+..+8 = 36.
#include "host.cuh"

__device__ void warp_reduce(volatile int* s, int t) {
  for (int d = 32; d > 0; d >>= 1) {
    int v = s[t] + s[t + d];  // [R]
    __syncwarp();
    s[t] = v;  // [W]
    __syncwarp();
  }
}

__global__ void reduce64(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = in[t];  // [S]
  __syncthreads();
  if (t < 32) {
    warp_reduce(s, t);
  }
  if (t == 0) {
    out[0] = s[0];  // [O]
  }
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(1);
  reduce64<<<1, 64>>>(in, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
