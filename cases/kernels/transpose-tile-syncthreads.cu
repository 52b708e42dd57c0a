// 2-D tiled matrix transpose through shared memory (the classic padded 8x9 tile): each thread stores one element
// of its block's tile, __syncthreads(), then writes the transposed element another thread loaded (the bug is
// transpose-tile-no-syncthreads.cu). A 16x16 matrix, a 2x2 grid of 8x8 blocks.
//
// ptxmm-launch: --grid 2,2 --block 8,8 --arg in=int32[256]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18 --arg out=int32[256] --assert 'out[1]==17 && out[16]==2 && out[17]==18 && out[128]==9'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] ld.global.u32 + st.shared.u32, bar.sync 0,
// [R] ld.shared.u32 + st.global.u32):
// * Thread (x, y) of block (bx, by) stores tile[y][x] in [S] (line 32) and reads tile[x][y] in [R] (line 36),
//   stored by thread (y, x) of the same block — in another warp for most pairs (64 threads = 2 warps). The
//   `bar.sync 0` between them (line 33) is executed by all 64 threads: arrive sw wait (§4.4, §2.8 rule 2), so
//   [S] of (y, x) is in causality order before [R] of (x, y) (§2.10 C1): no race. Tiles are per block (shared
//   memory), and each element of `out` is written once: no other conflict.
// * out[r*16 + c] = in[c*16 + r] (Causality, §3.6: [R] reads the only store it is ordered after): out[1] = in[16]
//   = 17, out[16] = in[1] = 2, out[17] = in[17] = 18, out[128] = in[8] = 9 (out row 8 is written by block (1, 0),
//   which loaded in's rows 0-7, columns 8-15).
#include "host.cuh"

constexpr int kTile = 8;
constexpr int kN = 16;

__global__ void transpose(const int* in, int* out) {
  __shared__ int tile[kTile][kTile + 1];  // +1: no bank conflicts on the column read
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * kN + x];  // [S]
  __syncthreads();
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
