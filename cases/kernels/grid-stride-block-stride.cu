// Grid-stride loop that strides by blockDim.x instead of blockDim.x * gridDim.x: every block walks the whole array
// from its own offset, so elements are written by threads of both blocks (the fix is grid-stride-scale.cu). The
// values written agree, so the result is right — but it is a data race.
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[100]=1,2,3,4,5 --arg out=int32[100] --arg n=100 --assert 'out[0]==3 && out[4]==15 && out[64]==0 && out[99]==0'
// ptxmm-expect: race 22 22 no-synchronisation
// ptxmm-expect: assert holds
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u32 / st.global.u32 in the loop):
// * Thread t of block b visits i = 32b + t, 32b + t + 32, ... < 100: block 0 covers 0..99, block 1 covers 32..99.
//   So out[i] for i >= 32 is stored ([W], line 22) by thread i mod 32 of both blocks: two weak stores of the same
//   location in different CTAs with nothing between them — a data race, no-synchronisation (§2.4), line 22 with
//   itself. `in` is only read.
// * Both stores of out[i] write 3 * in[i] (each reads the initial in[i]), and out[i] for i < 32 is stored once; the
//   final value is one of the stores (§2.12), so every element is 3 * in[i] whichever store is last: out[0] = 3,
//   out[4] = 15, out[64] = 0, out[99] = 0. The assertion holds; the race still makes the exit code 1.
#include "host.cuh"

__global__ void scale(const int* in, int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x) {  // bug: + blockDim.x * gridDim.x
    out[i] = 3 * in[i];  // [W]
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
