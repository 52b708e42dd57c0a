// The fix of flag-per-consumer-off-by-one.cu: the producer sets every consumer's flag, here with block 0 as
// the producer and consumers 1 and 2 (the producer has the lowest index; the consumers wait for it).
//
// ptxmm-launch: --grid 3 --block 32 --arg data=int32[1] --arg ready=int32[3] --arg out=int32[3] --assert 'out[1]==42 && out[2]==42 && ready[2]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.release.gpu.global per flag, ld.acquire.gpu.global
// poll [P]):
// * [W] po each release store (rp1); each consumer's last [P] reads 1 (acquire, ap1); ms .gpu: sw (§2.8 rule
//   4), so [W] is in causality order before [R] (§2.10): race-free and out[i] = 42 (§3.6).
// * Both flags are set, so both polls end under fair progress.
#include <cuda/atomic>

#include "host.cuh"

__global__ void publish(int* data, int* ready, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *data = 42;  // [W]
    for (unsigned i = 1; i < gridDim.x; ++i) {
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
  finish();
  print("out", out, 3, {1, 2});
  return 0;
}
