// Grid-stride loop over a scalar length n (the everyday `for (i = global id; i < n; i += blockDim.x * gridDim.x)`
// idiom): out[i] = 3 * in[i]. Every element is owned by exactly one thread (the bug is grid-stride-block-stride.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[100]=1,2,3,4,5 --arg out=int32[100] --arg n=100 --assert 'out[0]==3 && out[4]==15 && out[64]==0 && out[99]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u32 / st.global.u32 in a loop whose trip count
// depends on the thread and n):
// * Thread g = blockIdx.x * 32 + threadIdx.x (0..63) visits i = g, g + 64, ... < 100: threads 0..35 two elements,
//   36..63 one. Two threads visit the same i only if g1 ≡ g2 (mod 64), i.e. never: each out[i] ([W], line 20) is
//   written once and `in` is only read ([R], line 20). No conflicting pair, race-free (§2.4).
// * out[i] = 3 * in[i] (the thread reads the initial in[i], §3.6): out[0] = 3, out[4] = 15, out[64] = 3 * in[64] = 0,
//   out[99] = 0.
#include "host.cuh"

__global__ void scale(const int* in, int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = 3 * in[i];  // [R] [W]
  }
}

int main() {
  int* in = device_buffer<int>(100, {1, 2, 3, 4, 5});
  int* out = device_buffer<int>(100);
  scale<<<2, 32>>>(in, out, 100);
  finish();
  print("out", out, 100, {0, 4, 64, 99});
  return 0;
}
