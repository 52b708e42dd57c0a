// The grid-wide counter of atomic-ref-block-scope-across-ctas.cu with the scope every incrementing thread
// needs: cuda::atomic_ref<int, thread_scope_device>.
//
// ptxmm-launch: --grid 2 --block 2 --arg in=int32[4] --arg hits=int32[1] --assert 'hits[0]==4' --observe 'hits[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe hits[0] 4
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.add.relaxed.gpu.s32):
// * All four [C] (line 22) are strong .gpu RMWs of one GPU on the same word: mutually in scope, morally strong
//   (§2.3), so they never race, and RMW atomicity (§3.3) linearizes them: each reads the previous one's write
//   (litmus AT1, §7.6). hits[0] = 4.
#include "host.cuh"

#include <cuda/atomic>

__global__ void count_nonnegative(const int* in, int* hits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] >= 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device> h(*hits);
    h.fetch_add(1, cuda::std::memory_order_relaxed);  // [C]
  }
}

int main() {
  int* in = device_buffer<int>(4);
  int* hits = device_buffer<int>(1);
  count_nonnegative<<<2, 2>>>(in, hits);
  finish();
  print("hits", hits, 1, {0});
  return 0;
}
