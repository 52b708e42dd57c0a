// stencil2d-halo-after-sync.cu with no barrier at all: each thread reads its four neighbours' interior tile
// elements right after storing its own.
//
// ptxmm-launch: --grid 2,2 --block 8,4 --arg in=int32[128]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --arg out=int32[128] --arg w=16 --arg h=8
// ptxmm-expect: race 22 28 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared [I], the guarded halo st.shared, five
// ld.shared at [C], no bar.sync):
// * [C] of thread (x, y) reads tile[ly][lx +- 1] and tile[ly +- 1][lx], which the neighbouring threads of the
//   block store at [I]: weak, conflicting, unordered: a race [I]-[C] (§2.4).
// * The halo stores are read only by the thread that made them (see stencil2d-halo-after-sync.cu): no race
//   on them. No assertion: a read before the neighbour's store returns shared memory's undefined initial value.
#include "host.cuh"

constexpr int BX = 8, BY = 4;

__global__ void stencil5(const int* in, int* out, int w, int h) {
  __shared__ int tile[BY + 2][BX + 2];
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  tile[ly][lx] = in[y * w + x];  // [I]
  // missing: __syncthreads() (neither the interior nor the halo is published)
  if (threadIdx.x == 0) tile[ly][0] = x > 0 ? in[y * w + x - 1] : 0;                // [HL]
  if (threadIdx.x == BX - 1) tile[ly][BX + 1] = x < w - 1 ? in[y * w + x + 1] : 0;  // [HR]
  if (threadIdx.y == 0) tile[0][lx] = y > 0 ? in[(y - 1) * w + x] : 0;              // [HT]
  if (threadIdx.y == BY - 1) tile[BY + 1][lx] = y < h - 1 ? in[(y + 1) * w + x] : 0;  // [HB]
  out[y * w + x] = tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4 * tile[ly][lx];  // [C]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
  int* out = device_buffer<int>(128);
  stencil5<<<dim3(2, 2), dim3(BX, BY)>>>(in, out, 16, 8);
  finish();
  print("out", out, 128, {1, 7, 8, 17});
  return 0;
}
