// 1-D stencil (radius 2) through a shared tile with halo cells: every thread stages its own element, the first
// RADIUS threads also stage the left and right halos (zero outside the array), one __syncthreads(), then each
// thread sums five tile cells (the fix; the bug is stencil1d-halo-no-syncthreads.cu).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=1,2,3,4,5,6,7,8 --arg out=int32[128] --arg n=128 --assert 'out[0]==6 && out[1]==10 && out[2]==15 && out[7]==21 && out[8]==15 && out[127]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, [HL]/[HR] st.shared.u32 under
// `tid < 2`, bar.sync 0, five ld.shared.u32 ([R]), [O] st.global.u32):
// * Per CTA (64 threads): thread x stores tile[x + 2] ([S], line 29); threads 0 and 1 also store tile[x] ([HL], line
//   31) and tile[x + 66] ([HR], line 32). So tile[0..67] is each written by exactly one thread: no two stores conflict.
// * Thread x reads tile[x .. x + 4] ([R], line 36) after `bar.sync 0` (line 34), which all 64 threads execute (it is
//   outside the `if`, §4.4): every store po bar sw bar po every read (§2.8 rule 2), causality order (§2.10 C1).
//   Race-free; `in` is only read and each out element written once ([O], line 37).
// * Values (§3.6: each read sees the single store to its cell): out[g] = sum of in[g-2 .. g+2] with zeros outside
//   0..127. in = 1..8 then zeros: out[0] = 0+0+1+2+3 = 6, out[1] = 0+1+2+3+4 = 10, out[2] = 15, out[7] = 6+7+8+0+0
//   = 21, out[8] = 7+8 = 15, out[127] = 0.
#include "host.cuh"

constexpr int RADIUS = 2;
constexpr int BLOCK = 64;

__global__ void stencil(const int* in, int* out, int n) {
  __shared__ int tile[BLOCK + 2 * RADIUS];
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + RADIUS;
  tile[l] = in[g];  // [S]
  if (threadIdx.x < RADIUS) {
    tile[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;     // [HL] left halo
    tile[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;     // [HR] right halo
  }
  __syncthreads();  // [B]
  int sum = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) sum += tile[l + o];  // [R]
  out[g] = sum;  // [O]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(128);
  stencil<<<2, 64>>>(in, out, 128);
  finish();
  print("out", out, 128, {0, 1, 2, 7, 8, 127});
  return 0;
}
