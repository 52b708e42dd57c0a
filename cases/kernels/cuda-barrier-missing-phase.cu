// cuda::barrier<thread_scope_block> with arrive_and_wait() publishing a shared buffer, but the buffer is then
// overwritten WITHOUT a second phase (the bug; the fix is cuda-barrier-arrive-wait-phases.cu): a fast thread's
// second store can land before a slow thread has read the first contents. A 3-D block of 4x4x4 threads.
//
// ptxmm-launch: --grid 1 --block 4,4,4 --arg in=int32[64]=1,2,3 --arg out=int32[64] --arg out2=int32[64]
// ptxmm-expect: race 37 40 no-synchronisation
// ptxmm-expect: race 40 41 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: thread 0's mbarrier.init.shared.b64, bar.sync 0, one
// mbarrier.arrive.shared.b64 (= .release.cta) + try_wait.parity loop (= .acquire.cta); [W]/[W2] st.shared.u32,
// [R]/[R2] ld.shared.u32):
// * t = x + 4y + 16z, 0..63. [W] (line 35) stores buf[t]; the one arrive_and_wait (line 36) orders every [W] before
//   every [R] (line 37, buf[63 - t]) (release arrive, acquire wait of the completed phase, MB1 §4.7).
// * Thread t's [W2] (line 40, buf[t]) and thread 63 - t's [R] of buf[t] both come after the same phase and no later
//   synchronisation exists: unordered (§2.8), weak store and weak load of one address, different threads: a data
//   race (§2.4), no-synchronisation. Likewise [W2] of thread (t + 1) % 64 and [R2] (line 41, buf[(t + 1) % 64]) of
//   thread t: a second racing pair. [W] against [W2] is the same thread (po); [W] against [R2] is ordered by the
//   phase. These two line pairs are all the races; no assertion (the reads may see either contents).
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void phases(const int* in, int* out, int* out2) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int buf[64];
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();

  const int t = static_cast<int>(block.thread_rank());
  buf[t] = 3 * in[t];  // [W]
  bar.arrive_and_wait();  // [A1] the buffer is published
  const int mirror = buf[63 - t];  // [R]
  out[t] = mirror;
  // BUG: no bar.arrive_and_wait() here: the buffer is overwritten while others may still read it
  buf[t] = mirror + 1;  // [W2]
  out2[t] = buf[(t + 1) % 64];  // [R2]
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3});
  int* out = device_buffer<int>(64);
  int* out2 = device_buffer<int>(64);
  phases<<<1, dim3(4, 4, 4)>>>(in, out, out2);
  finish();
  print("out", out, 64, {0, 61, 62, 63});
  print("out2", out2, 64, {0, 61, 62, 63});
  return 0;
}
