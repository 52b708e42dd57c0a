// The fix of early-exit-return-syncthreads.cu: every thread of the 8x8 block reaches __syncthreads(); only the
// loads and stores are guarded by t < n.
//
// ptxmm-launch: --grid 1 --block 8,8 --arg in=int32[40]=5,6,7 --arg out=int32[40] --arg n=40 --assert 'out[39]==5 && out[38]==6 && out[37]==7 && out[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the guarded st.shared / ld.shared around one
// `bar.sync 0` that every thread executes):
// * All 64 threads execute [B] (line 22) once: generation 0 of barrier 0 completes, and every store [S] is
//   ordered before every load [L] by sw_bar (§2.8 rule 2, §4.4) and po: causality order, no race (§2.4).
// * Thread t < 40 reads s[39 - t], written by thread 39 - t < 40 at [S] with in[39 - t]; by causality it reads
//   that value and nothing co-later exists (§3.6): out[39] = in[0] = 5, out[38] = 6, out[37] = 7, and out[0] =
//   in[39] = 0 (the rest of `in` is zero).
#include "host.cuh"

__global__ void reverse_prefix(const int* in, int* out, int n) {
  __shared__ int s[64];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < n) s[t] = in[t];  // [S]
  __syncthreads();          // [B] reached by every thread
  if (t < n) out[t] = s[n - 1 - t];  // [L]
}

int main() {
  int* in = device_buffer<int>(40, {5, 6, 7});
  int* out = device_buffer<int>(40);
  reverse_prefix<<<1, dim3(8, 8)>>>(in, out, 40);
  finish();
  print("out", out, 40, {0, 37, 38, 39});
  return 0;
}
