// histogram-private-shared-atomic.cu with the merge into global memory done by a plain `hist[t] += sh[t]`:
// thread t of both blocks read-modify-write hist[t] without atomicity.
//
// ptxmm-launch: --grid 2 --block 32 --arg data=uint8[64]=1,2,3,9 --arg hist=uint32[8] --assert 'hist[0]==60' --observe 'hist[0]' --observe 'hist[1]'
// ptxmm-expect: race 27 27 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe hist[0] 28,32,60
// ptxmm-expect: observe hist[1] 0,2
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [M] is ld.global.u32 + add + st.global.u32, weak):
// * Thread t of block 0 and of block 1 both load and store hist[t]: weak, conflicting, no synchronisation
//   between the blocks: a race at [M] with itself (§2.4). The shared phase is as in the atomic version.
// * hist[0]: block 0 adds 28, block 1 adds 32. Each load returns 0 or the other block's store; the final
//   value is the co-last store (§2.12): 28 or 32 (both read 0), 60 (one read the other's). hist[1]: block 0
//   stores 0 + 2, block 1 stores (what it read) + 0; if block 1 read 0 and its store is co-last, 0 remains:
//   {0, 2}.
#include "host.cuh"

__global__ void histogram_private_plain(const unsigned char* data, unsigned* hist) {
  __shared__ unsigned sh[8];
  const int t = threadIdx.x;
  if (t < 8) sh[t] = 0;  // [Z]
  __syncthreads();
  atomicAdd(&sh[data[blockIdx.x * blockDim.x + t] % 8], 1u);  // [A]
  __syncthreads();
  if (t < 8) hist[t] += sh[t];  // [M] bug: plain read-modify-write across blocks
}

int main() {
  unsigned char* data = device_buffer<unsigned char>(64, {1, 2, 3, 9});
  unsigned* hist = device_buffer<unsigned>(8);
  histogram_private_plain<<<2, 32>>>(data, hist);
  finish();
  print("hist", hist, 8, {0, 1, 2, 3, 7});
  return 0;
}
