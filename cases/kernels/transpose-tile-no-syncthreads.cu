// 2-D tiled matrix transpose through shared memory (the padded 8x9 tile) with the __syncthreads() between the
// tile store and the transposed read left out (the fix is transpose-tile-syncthreads.cu). A 16x16 matrix, a 2x2 grid of 8x8 blocks.
//
// ptxmm-launch: --grid 2,2 --block 8,8 --arg in=int32[256]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18 --arg out=int32[256] --assert 'out[1]==17 && out[16]==2 && out[17]==18 && out[128]==9'
// ptxmm-expect: race 27 31 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] ld.global.u32 + st.shared.u32, [R] ld.shared.u32 +
// st.global.u32, no barrier between them):
// * Thread (x, y) of block (bx, by) stores tile[y][x] in [S] (line 27) and reads tile[x][y] in [R] (line 31),
//   stored by thread (y, x) of the same block (for x != y another thread, often in the other warp). Both accesses
//   are weak and nothing orders them — no barrier, no fence, and threads of one warp are not ordered by being in a
//   warp (§4.5: only bar.warp.sync orders lanes): data races, no-synchronisation (§2.4).
// * [R] may read tile's uninitialised contents instead of the value (y, x) stores (§3.6 allows any store not
//   causality-ordered after it, and the initial value): out[1] == 17 etc. can fail. (Shared memory has no defined
//   initial value; ptxmm treats it as unknown or zero — either way not 17.)
#include "host.cuh"

constexpr int kTile = 8;
constexpr int kN = 16;

__global__ void transpose(const int* in, int* out) {
  __shared__ int tile[kTile][kTile + 1];  // +1: no bank conflicts on the column read
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * kN + x];  // [S]
  // bug: no __syncthreads() here
  x = blockIdx.y * kTile + threadIdx.x;  // transposed block offset
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = tile[threadIdx.x][threadIdx.y];  // [R]
}

int main() {
  int* in = device_buffer<int>(256, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18});
  int* out = device_buffer<int>(256);
  transpose<<<dim3(2, 2), dim3(8, 8)>>>(in, out);
  finish();
  print("out", out, 256, {1, 16, 17, 128});
  return 0;
}
