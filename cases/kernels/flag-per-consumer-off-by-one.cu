// One producer block publishes a buffer and then sets one ready flag per consumer block with a release store;
// the loop over the consumers stops one short (i < gridDim.x - 1), so the last consumer polls a flag nobody
// ever sets (the fix is flag-per-consumer-all-set.cu).
//
// ptxmm-launch: --grid 3 --block 32 --arg data=int32[1] --arg ready=int32[3] --arg out=int32[3]
// ptxmm-expect: race-free
// ptxmm-expect: hang 30
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX checked: libcu++
// atomic_ref<int, device> store(release) = st.release.gpu.global, load(acquire) = ld.acquire.gpu.global in the
// poll loop [P]):
// * Block 0's thread 0 writes data [W] and sets ready[i] for i = 1 .. gridDim.x - 2 = 1 only: ready[2] keeps
//   its initial 0 in every execution, so block 2's thread 0 reads 0 at [P] for ever: a hang at [P].
// * No race: block 1's [R] is ordered after [W] by the release store / acquire poll pair (§2.8 rule 4); block
//   2's [R] never runs.
#include <cuda/atomic>

#include "host.cuh"

__global__ void publish(int* data, int* ready, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *data = 42;  // [W]
    for (unsigned i = 1; i < gridDim.x - 1; ++i) {  // bug: should be i < gridDim.x
      cuda::atomic_ref<int, cuda::thread_scope_device>(ready[i]).store(1, cuda::memory_order_release);
    }
  } else {
    cuda::atomic_ref<int, cuda::thread_scope_device> mine(ready[blockIdx.x]);
    while (mine.load(cuda::memory_order_acquire) == 0) {  // [P]
    }
    out[blockIdx.x] = *data;  // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* ready = device_buffer<int>(3);
  int* out = device_buffer<int>(3);
  publish<<<3, 32>>>(data, ready, out);
  finish(5);
  print("out", out, 3, {1, 2});
  return 0;
}
