// Histogram with a plain read-modify-write of the bin (seed 003, histogram_broken): threads whose inputs fall in
// the same bin lose increments (the fix is histogram-atomic.cu).
//
// ptxmm-launch: --grid 2 --block 4 --arg data=int32[8]=0,1,0,2,3,0,1,2 --arg bins=int32[4] --arg n=8 --assert 'bins[0]==3' --observe 'bins[0]'
// ptxmm-expect: race 23 23 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe bins[0] 1,2,3
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [X] (line 23) is ld.global + st.global, weak):
// * Threads 0, 2 and 5 (blocks 0, 0, 1) all update bins[0]; threads 1 and 6 bins[1], 3 and 7 bins[2]. Their
//   loads and stores conflict, are weak (not ms, §2.3) and nothing synchronizes them: races, no-synchronisation,
//   all between line 23 and itself.
// * bins[0]: each of the three threads stores 1 + the value it read; a read returns the initial 0 or another
//   thread's store (no causality forbids any, §3.6), and the final value is a co-maximal store (§2.12):
//   1 (all read 0), 2, or 3 (each read the previous one). Never 0, never more than 3.
#include "host.cuh"

__global__ void histogram_broken(const int* data, int* bins, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    int bin = data[idx];
    bins[bin] += 1;  // [X] Not atomic: read, add, write can interleave
  }
}

int main() {
  int* data = device_buffer<int>(8, {0, 1, 0, 2, 3, 0, 1, 2});
  int* bins = device_buffer<int>(4);
  histogram_broken<<<2, 4>>>(data, bins, 8);
  finish();
  print("bins", bins, 4, {0, 1, 2, 3});
  return 0;
}
