// 1-D stencil (radius 2) through a shared tile with halo cells staged by the first RADIUS threads, without the
// __syncthreads() between staging and reading (the bug; the fix is stencil1d-halo-syncthreads.cu).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=1,2,3,4,5,6,7,8 --arg out=int32[128] --arg n=128
// ptxmm-expect: race 28 35 no-synchronisation
// ptxmm-expect: race 30 35 no-synchronisation
// ptxmm-expect: race 31 35 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, [HL]/[HR] st.shared.u32 under
// `tid < 2`, five ld.shared.u32 ([R]), no barrier):
// * Per CTA: thread x stores tile[x + 2] ([S], line 28); threads 0 and 1 store the halos tile[x] ([HL], line 30) and
//   tile[x + 66] ([HR], line 31); thread x reads tile[x .. x + 4] ([R], line 35).
// * Nothing synchronises the threads of a CTA here (no barrier, fence or strong access, §2.8), so a store and a
//   read of another thread are unordered: thread 1 reads tile[2] stored by thread 0 ([S]), thread 0 reads tile[1]
//   stored by thread 1's [HL], thread 62 reads tile[66] stored by thread 0's [HR]. Weak store, weak load, same
//   address, different threads: data races (§2.4), kind no-synchronisation, on the three line pairs.
// * No assertion: a racing read may see the tile's undefined initial contents.
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
  // BUG: no __syncthreads() between staging the tile and reading neighbours' cells
  int sum = 0;
  for (int o = -RADIUS; o <= RADIUS; ++o) sum += tile[l + o];  // [R]
  out[g] = sum;
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(128);
  stencil<<<2, 64>>>(in, out, 128);
  finish();
  print("out", out, 128, {0, 1, 2, 7, 8, 127});
  return 0;
}
