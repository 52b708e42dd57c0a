// Tiled integer matrix multiply C = A * Bt^T (the "NT" layout: both operands row-major with k contiguous), an 8x8
// thread block per 8x8 tile of C, shared A and B tiles staged by a __device__ helper called twice per k-tile,
// and both barriers per k-tile (the fix; the bug is matmul-tiled-missing-war-sync.cu). K is a kernel argument.
//
// ptxmm-launch: --grid 2,1 --block 8,8 --arg A=int32[128]=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --arg Bt=int32[256]=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2 --arg C=int32[128] --arg K=16 --assert 'C[0]==136 && C[1]==32 && C[2]==0 && C[8]==0 && C[16]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: per k-tile two st.shared.u32 ([SA], [SB], the helper
// inlined at lines 40 and 41), bar.sync 0, eight pairs of ld.shared.u32 ([R]), bar.sync 0; [O] st.global.u32):
// * Launch: 2 CTAs of 8x8 threads; K = 16 gives two k-tiles (the loop bound is the scalar argument, concrete).
//   In k-tile t thread (x,y) stores As[y][x] ([SA], line 40) and Bs[y][x] ([SB], line 41) and reads As[y][k] (stored by
//   thread (k,y)) and Bs[x][k] (stored by thread (k,x)) for k = 0..7 ([R], line 44).
// * Read after write: [SA]/[SB] of k-tile t po the first `bar.sync 0` (line 42), which every one of the 64
//   threads of the CTA executes (§4.4), po [R] of k-tile t: arrive sw wait (§2.8 rule 2), causality order (§2.10 C1).
//   Write after read: [R] of k-tile t po the second `bar.sync 0` (line 45) po [SA]/[SB] of k-tile t + 1: ordered
//   the same way. Stores of different k-tiles to one element are by one thread (po). Every conflicting pair is
//   ordered: race-free (§2.4). A and Bt are only read; each C element is written once ([O], line 47) by its own
//   thread; the two CTAs have their own tiles.
// * So every [R] reads the current k-tile (§3.6): C[r][c] = sum_k A[r][k] * Bt[c][k]. A row 0 = 1..16, Bt row 0 =
//   sixteen 1s, Bt row 1 = 0,...,0,2: C[0][0] = 136, C[0][1] = 16 * 2 = 32, C[0][2] = 0, C[0][8] (CTA 1) = 0,
//   C[1][0] = 0 (A row 1 is zero).
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
    __syncthreads();                                           // [B2] every thread is done with them
  }
  C[row * (gridDim.x * TILE) + col] = acc;  // [O]
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
