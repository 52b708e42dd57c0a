// Butterfly all-reduce of 64-bit values with __shfl_xor_sync (each 64-bit shuffle is two shfl.sync.bfly.b32 of
// the halves): every lane ends with its warp's sum and stores it. 2 CTAs of 2-D 32x2 blocks (four warps).
//
// ptxmm-launch: --grid 2 --block 32,2 --arg in=int64[128]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --arg out=int64[128] --assert 'out[0]==136 && out[31]==136 && out[32]==0 && out[127]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u64, five rounds of two
// shfl.sync.bfly.b32 (mask -1) recombined with mov.b64, add.s64, [S] st.global.u64):
// * Thread g = 64 * blockIdx.x + 32 * threadIdx.y + threadIdx.x reads in[g] ([L], line 25, nobody writes `in`) and
//   writes out[g] ([S], line 26) once: no conflicting pair, race-free (§2.4). Shuffles are register exchanges (§2.1).
// * After the xor rounds 16, 8, 4, 2, 1 every lane holds the sum of its warp (PTX ISA shfl.sync .bfly, all lanes
//   in the mask): warp 0 of CTA 0 sums 1..16 = 136, the other warps 0.
#include "host.cuh"

template <class T>
__device__ T warp_allreduce(T v) {
  for (int mask = 16; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffffu, v, mask);
  return v;
}

__global__ void allreduce(const long long* in, long long* out) {
  const int g = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  const long long v = in[g];  // [L]
  out[g] = warp_allreduce(v);  // [S]
}

int main() {
  long long* in = device_buffer<long long>(128, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  long long* out = device_buffer<long long>(128);
  allreduce<<<2, dim3(32, 2)>>>(in, out);
  finish();
  print("out", out, 128, {0, 31, 32, 127});
  return 0;
}
