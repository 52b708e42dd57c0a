// Producer/consumer across blocks, method 2 of seed 000: a cuda::atomic<int, thread_scope_device> flag
// stored with memory_order_release and polled with memory_order_acquire.
//
// ptxmm-launch: --grid 2 --block 32 --arg result=int32[1] --assert 'result[0]==42'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: libcu++ emits st.release.gpu.b32 for the store
// and ld.acquire.gpu.b32 for the load, §5.1, §5.3):
// * [W] (line 28) stores the global `data` (weak), [R] (line 33) loads it in block 1.
// * [S] (st.release.gpu) is release pattern rp1, [P] (ld.acquire.gpu) acquire pattern ap1 (§2.5). When [P]
//   reads 1, [S] obs [P] (both .gpu, same GPU: ms, §2.3, §2.6), and the pattern ends are ms: [S] sw [P]
//   (§2.8 rule 4). [W] po [S] sw [P] po [R]: causality order (§2.10 C1): no race, result[0] = 42.
// * The flag's own accesses are strong and ms: never a race.
// * `flag` (and `data`) starts at 0: nvcc emits `.global .align 4 .b8 flag[4];` with no initializer (it drops `= 0`),
//   relying on .global variables being zero-filled at load; the reader must start them at 0.
#include "host.cuh"

#include <cuda/atomic>

__device__ int data;
__device__ cuda::atomic<int, cuda::thread_scope_device> flag{0};

__global__ void handoff(int* result) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    data = 42;                                         // [W]
    flag.store(1, cuda::std::memory_order_release);    // [S]
  } else {  // consumer
    while (flag.load(cuda::std::memory_order_acquire) == 0) {  // [P]
    }
    *result = data;  // [R]
  }
}

int main() {
  int* result = device_buffer<int>(1);
  handoff<<<2, 32>>>(result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
