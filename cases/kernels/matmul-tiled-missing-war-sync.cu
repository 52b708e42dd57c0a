// Tiled integer matrix multiply C = A * Bt^T with the second __syncthreads() of the k-loop left out (the bug; the
// fix is matmul-tiled-two-syncthreads.cu): a fast thread stages the next k-tile over an element a slower
// neighbour has not read yet (write after read). The tiles are staged by a __device__ helper called twice.
//
// ptxmm-launch: --grid 2,1 --block 8,8 --arg A=int32[128]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --arg Bt=int32[256]=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2 --arg C=int32[128] --arg K=16
// ptxmm-expect: race 38 42 no-synchronisation
// ptxmm-expect: race 39 42 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: per k-tile two st.shared.u32 ([SA], [SB], the helper
// inlined at lines 38 and 39), bar.sync 0, eight pairs of ld.shared.u32 ([R]); no second barrier):
// * Launch: 2 CTAs of 8x8 threads, K = 16: two k-tiles. Thread (x,y) stores As[y][x] ([SA], line 38) and Bs[y][x]
//   ([SB], line 39), then after the `bar.sync 0` (line 40) reads As[y][k] (stored by (k,y)) and Bs[x][k] (stored
//   by (k,x)) for k = 0..7 ([R], line 42).
// * Write after read: thread (x,y)'s [SA] of k-tile 1 and thread (x',y)'s [R] of As[y][x] in k-tile 0 (x' != x)
//   both follow k-tile 0's barrier and both precede k-tile 1's barrier in program order; nothing else orders
//   them (no other synchronising instruction in the loop, §2.8). A weak st.shared and a weak ld.shared of the
//   same address, different threads, unordered by causality: a data race (§2.4), kind no-synchronisation (both
//   weak, same proxy). The same holds for Bs: [SB] (line 39) against [R]. The read-after-write pairs of one k-tile
//   are ordered by the barrier (as in the fix), so these two line pairs are all the races.
// * No assertion: the racing read may read k-tile 1's element, so C may be wrong; the race alone decides exit 1.
#include "host.cuh"

// Stages one TILE x TILE tile of a row-major matrix with `ld` columns, rows from `row0`, columns from `col0`.
template <int TILE>
__device__ void stage_tile(int (*tile)[TILE], const int* m, int ld, int row0, int col0) {
  tile[threadIdx.y][threadIdx.x] = m[(row0 + threadIdx.y) * ld + col0 + threadIdx.x];
}

template <int TILE>
__global__ void matmul_nt(const int* A, const int* Bt, int* C, int K) {
  __shared__ int As[TILE][TILE];
  __shared__ int Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  int acc = 0;
  for (int t = 0; t < K / TILE; ++t) {
    stage_tile<TILE>(As, A, K, blockIdx.y * TILE, t * TILE);   // [SA]
    stage_tile<TILE>(Bs, Bt, K, blockIdx.x * TILE, t * TILE);  // [SB]
    __syncthreads();                                           // [B1] the tiles are complete
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[threadIdx.x][k];  // [R]
    // BUG: no __syncthreads() here: the next k-tile's stores may overwrite elements still being read
  }
  C[row * (gridDim.x * TILE) + col] = acc;
}

int main() {
  std::vector<int> bt(256, 0);
  for (int k = 0; k < 16; ++k) bt[k] = 1;
  bt[31] = 2;
  int* A = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  int* Bt = device_buffer<int>(256, bt);
  int* C = device_buffer<int>(128);
  matmul_nt<8><<<dim3(2, 1), dim3(8, 8)>>>(A, Bt, C, 16);
  finish();
  print("C", C, 128, {0, 1, 2, 8, 16});
  return 0;
}
