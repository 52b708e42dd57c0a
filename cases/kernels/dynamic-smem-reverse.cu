// Reverse an array through a dynamically sized shared buffer (`extern __shared__ int s[];`, the size given at
// launch as the third <<<>>> argument): store, __syncthreads(), read the mirrored slot. ptxmm sizes the dynamic
// array from `--arg s=int32[N]` (the extern array's name).
//
// ptxmm-launch: --grid 2 --block 128 --arg s=int32[128] --arg d=int32[256]=1,2,3 --arg n=128 --assert 'd[127]==1 && d[126]==2 && d[125]==3 && d[0]==0 && d[255]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: `.extern .shared .align 16 .b8 s[]`, [S] st.shared.u32,
// bar.sync 0, [R] ld.shared.u32, [W] st.global.u32):
// * Thread t of block b stores s[t] = d[128b + t] ([S], line 24) and, after `bar.sync 0` executed by all 128
//   threads (line 25; §4.4, §2.8 rule 2), reads s[n - 1 - t] ([R], line 26), stored by thread 127 - t: ordered
//   (§2.10 C1). Each block has its own s. [W] (line 26) overwrites d[128b + t], which only thread t of block b
//   read, before the barrier, in its own program order: no conflict with another thread. Race-free.
// * d[128b + t] becomes the old d[128b + 127 - t] (§3.6): d[127] = 1, d[126] = 2, d[125] = 3, d[0] = old d[127] = 0,
//   d[255] = old d[128] = 0.
#include "host.cuh"

__global__ void reverse(int* d, int n) {
  extern __shared__ int s[];
  const int t = threadIdx.x;
  const int base = blockIdx.x * blockDim.x;
  s[t] = d[base + t];  // [S]
  __syncthreads();
  d[base + t] = s[n - 1 - t];  // [R] [W]
}

int main() {
  int* d = device_buffer<int>(256, {1, 2, 3});
  reverse<<<2, 128, 128 * sizeof(int)>>>(d, 128);
  finish();
  print("d", d, 256, {0, 125, 126, 127, 255});
  return 0;
}
