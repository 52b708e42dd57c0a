// Histogram with atomicAdd on the bin (seed 003, histogram_correct).
//
// ptxmm-launch: --grid 2 --block 4 --arg data=int32[8]=0,1,0,2,3,0,1,2 --arg bins=int32[4] --arg n=8 --assert 'bins[0]==3 && bins[1]==2 && bins[2]==2 && bins[3]==1' --observe 'bins[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe bins[0] 3
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [X] (line 20) is atom.global.add.u32, .relaxed.gpu
// by default, §1.5):
// * All updates of a bin are strong .gpu RMWs of one GPU: morally strong (§2.3), no race; RMW atomicity
//   (§3.3) linearizes them, each reading its predecessor: every increment counts. The data reads conflict
//   with nothing.
#include "host.cuh"

__global__ void histogram_correct(const int* data, int* bins, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    int bin = data[idx];
    atomicAdd(&bins[bin], 1);  // [X] Hardware-guaranteed atomic
  }
}

int main() {
  int* data = device_buffer<int>(8, {0, 1, 0, 2, 3, 0, 1, 2});
  int* bins = device_buffer<int>(4);
  histogram_correct<<<2, 4>>>(data, bins, 8);
  finish();
  print("bins", bins, 4, {0, 1, 2, 3});
  return 0;
}
