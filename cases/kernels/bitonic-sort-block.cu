// Block-level bitonic sort of 32 ints in shared memory: nested stage loops (k, j) with __syncthreads() inside the
// inner loop, a compare-and-swap by the lower thread of each pair, data-dependent branches. One CTA of 32
// threads (one warp, but only __syncthreads() orders it); a template on the size.
//
// ptxmm-launch: --grid 1 --block 32 --arg in=int32[32]=5,-3,9,1,7,-8,2,6,4,0 --arg out=int32[32] --assert 'out[0]==-8 && out[1]==-3 && out[2]==0 && out[24]==0 && out[25]==1 && out[26]==2 && out[27]==4 && out[28]==5 && out[29]==6 && out[30]==7 && out[31]==9'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] st.shared.u32, bar.sync 0, then 15 steps (k = 2..32,
// j = k/2..1) of [R] two ld.shared.u32 and [W] two st.shared.u32 under the compare, each step ending in bar.sync 0;
// [O] ld.shared.u32 / st.global.u32):
// * In step (k, j) thread i is active iff i ^ j > i; it reads and may write s[i] and s[i ^ j] ([R], line 33; [W],
//   line 35). The pairs {i, i ^ j} of one step are disjoint and the partner i ^ j is inactive (its partner i is
//   smaller), so within a step no element is touched by two threads. Steps are separated by a `bar.sync 0` (line
//   37) that all 32 threads execute (outside the `if`, §4.4): any two accesses of different steps are ordered
//   (arrive sw wait, §2.8 rule 2; causality §2.10 C1), as are [L] (line 27) before step 1 and the last step before
//   [O] (line 40). Race-free (§2.4).
// * So every step reads the previous step's values (§3.6) and the network sorts ascending: in = 5,-3,9,1,7,-8,2,6,4,0
//   and 22 zeros gives -8, -3, 23 zeros (out[2..24]), 1, 2, 4, 5, 6, 7, 9 (out[25..31]).
#include "host.cuh"

template <int N>
__global__ void bitonic(const int* in, int* out) {
  __shared__ int s[N];
  const int i = threadIdx.x;
  s[i] = in[i];  // [L]
  __syncthreads();
  for (int k = 2; k <= N; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      const int ixj = i ^ j;
      if (ixj > i) {
        const int a = s[i], b = s[ixj];  // [R]
        const bool up = (i & k) == 0;
        if ((a > b) == up) { s[i] = b; s[ixj] = a; }  // [W]
      }
      __syncthreads();  // [B]
    }
  }
  out[i] = s[i];  // [O]
}

int main() {
  int* in = device_buffer<int>(32, {5, -3, 9, 1, 7, -8, 2, 6, 4, 0});
  int* out = device_buffer<int>(32);
  bitonic<32><<<1, 32>>>(in, out);
  finish();
  print("out", out, 32, {0, 1, 2, 24, 25, 26, 27, 28, 29, 30, 31});
  return 0;
}
