// 2-D 5-point stencil over a 16x8 grid with 8x4 blocks and a shared tile with a one-element halo. The edge
// threads load the halo AFTER the __syncthreads() that publishes the interior — which looks like the classic
// missing-halo-sync bug, but each halo element of a 5-point stencil is read only by the thread that loaded it
// (the bug with no barrier at all is stencil2d-no-sync.cu).
//
// ptxmm-launch: --grid 2,2 --block 8,4 --arg in=int32[128]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 --arg out=int32[128] --arg w=16 --arg h=8 --assert 'out[1]==14 && out[7]==-16 && out[8]==-18 && out[17]==-34'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared of the interior [I], one `bar.sync 0`
// [B], the four guarded halo st.shared [H*], the five ld.shared of [C]):
// * [I] (every thread's own tile[ly][lx]) is ordered before every [C] by [B] (sw_bar, §2.8): no race.
// * Halo: [HL] tile[ly][0] by thread x = 0 of row ly; [C] reads column 0 only through tile[ly][lx-1] with lx = 1,
//   i.e. thread (0, ly-1) itself — po orders it. Likewise [HR] (column 9) is read only by x = 7, [HT] (row 0)
//   only by y = 0, [HB] (row 5) only by y = 3, each the thread that stored it. Corners are never read. No two
//   threads conflict on a halo element: race-free (§2.4).
// * Values (in[k] = k + 1 for k < 20, then zeros; row-major, w = 16, outside the grid 0):
//   out[1] = in[0] + in[2] + 0 + in[17] - 4*in[1] = 1 + 3 + 18 - 8 = 14; out[7] = in[6] + in[8] (block (1,0)'s
//   column, via [HR]) + 0 + in[23] - 4*in[7] = 7 + 9 - 32 = -16; out[8] = in[7] (via [HL]) + in[9] - 4*in[8] =
//   8 + 10 - 36 = -18; out[17] = in[16] + in[18] + in[1] + in[33] - 4*in[17] = 17 + 19 + 2 + 0 - 72 = -34.
#include "host.cuh"

constexpr int BX = 8, BY = 4;

__global__ void stencil5(const int* in, int* out, int w, int h) {
  __shared__ int tile[BY + 2][BX + 2];
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  tile[ly][lx] = in[y * w + x];  // [I]
  __syncthreads();               // [B]
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
