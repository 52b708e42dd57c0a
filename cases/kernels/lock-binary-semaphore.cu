// A device-wide mutex from cuda::binary_semaphore<thread_scope_device> (seed 000, mutex_kernel): every thread
// takes it, increments a plain counter, releases it.
//
// ptxmm-launch: --grid 2 --block 4 --arg counter=int32[1] --assert 'counter[0]==8'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: acquire() is a loop around
// atom.exch.acquire.gpu.b32 [mtx], 0 (it owns the semaphore when the exchange returns 1) with
// ld.relaxed.gpu polls and %globaltimer/nanosleep back-off in between; release() is st.release.gpu.b32 1;
// mtx is a .global variable initialized to 1):
// * Holder H: [X] (line 27, weak ld/st of *counter) po release() = st.release.gpu (rp1). Next holder N: its
//   successful exch (acquire: ap1) po [X]. N's exch reads the 1 that H's release stored (the only writes of
//   1 are releases; failed exchanges store back the 0 they read), so the release obs the exch (ms, .gpu) and
//   sw (§2.8 rule 4): H's [X] is in causality order before N's [X] (§2.10 C1). No race; counter[0] = 8.
// * The polls are strong .gpu loads of mtx, ms with everything else on it: no race on the semaphore.
#include "host.cuh"

#include <cuda/semaphore>

// Binary semaphore as mutex (only 1 thread at a time)
__device__ cuda::binary_semaphore<cuda::thread_scope_device> mtx{1};

__global__ void mutex_kernel(int* counter) {
  mtx.acquire();  // [A]
  (*counter)++;   // [X] Only one thread executes this at a time
  mtx.release();  // [U]
}

int main() {
  int* counter = device_buffer<int>(1);
  mutex_kernel<<<2, 4>>>(counter);
  finish();
  print("counter", counter, 1, {0});
  return 0;
}
