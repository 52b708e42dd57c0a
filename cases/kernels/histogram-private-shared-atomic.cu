// Privatised histogram: each block counts its bytes into 8 shared bins with shared atomics, then one thread per
// bin merges the block's count into the global histogram with atomicAdd (the buggy merge with a plain += is
// histogram-private-plain-merge.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg data=uint8[64]=1,2,3,9 --arg hist=uint32[8] --assert 'hist[0]==60 && hist[1]==2 && hist[2]==1 && hist[3]==1 && hist[7]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u8 of data, atom.shared.add.u32 [A],
// atom.global.add.u32 [M] (relaxed.gpu), two `bar.sync 0`):
// * [Z] (threads 0..7) is ordered before every [A] by the first barrier, every [A] before the [M] reads of
//   sh by the second (sw_bar, §2.8). The [A]s of one block are ms atomics of one CTA (§2.3): no race. The [M]s
//   of the two blocks are ms .gpu atomics on hist: no race.
// * Block 0's bytes: 1,2,3,9 then 28 zeros: bins 0:28, 1:2 (1 and 9), 2:1, 3:1; block 1: 32 zeros, bin 0:32.
//   By atomicity (§3.3) each sh[b] ends at its count and [M] reads it after the barrier (§3.6); hist[b] is the
//   sum of the two blocks' counts: 60, 2, 1, 1, 0...
#include "host.cuh"

__global__ void histogram_private(const unsigned char* data, unsigned* hist) {
  __shared__ unsigned sh[8];
  const int t = threadIdx.x;
  if (t < 8) sh[t] = 0;  // [Z]
  __syncthreads();
  atomicAdd(&sh[data[blockIdx.x * blockDim.x + t] % 8], 1u);  // [A]
  __syncthreads();
  if (t < 8) atomicAdd(&hist[t], sh[t]);  // [M]
}

int main() {
  unsigned char* data = device_buffer<unsigned char>(64, {1, 2, 3, 9});
  unsigned* hist = device_buffer<unsigned>(8);
  histogram_private<<<2, 32>>>(data, hist);
  finish();
  print("hist", hist, 8, {0, 1, 2, 3, 7});
  return 0;
}
