// cuda::barrier<thread_scope_block> used for three phases with arrive_and_wait() (mbarrier arrive + try_wait
// loop, phase parity flipping each time) in a 3-D block of 4x4x8 threads: publish a shared buffer, read the
// mirror element, overwrite the buffer after everyone has read it (write after read), read again (the fix; the
// bug without the middle phase is cuda-barrier-missing-phase.cu).
//
// ptxmm-launch: --grid 1 --block 4,4,8 --arg in=int32[128]=1,2,3 --arg out=int32[128] --arg out2=int32[128] --assert 'out[127]==3 && out[126]==6 && out[125]==9 && out[0]==0 && out2[126]==4 && out2[127]==1 && out2[125]==7 && out2[124]==10 && out2[0]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: thread 0's mbarrier.init.shared.b64, bar.sync 0
// (block.sync()), then three times mbarrier.arrive.shared.b64 (= .release.cta) and a loop of
// mbarrier.try_wait.parity.shared.b64 (= .acquire.cta) on the token's phase; [W]/[W2] st.shared.u32, [R]/[R2]
// ld.shared.u32, st.global.u32):
// * t = x + 4y + 16z, 0..127. Phase 1: [W] (line 42) stores buf[t]; arrive_and_wait (line 43): every thread's
//   release arrive precedes, in the mbarrier's RMW order, the arrival that completes the phase, and each thread's
//   acquire try_wait that returns true reads the completed phase (MB1, §4.7): [W] of every thread is ordered
//   before every [R] (line 44, buf[127 - t]). Phase 2 (line 46) orders every [R] before every [W2] (line 47,
//   buf[t] again): the write after read is ordered. Phase 3 (line 48) orders [W2] before [R2] (line 49,
//   buf[(t + 1) % 128]). The init is ordered before every arrive by the bar.sync. All conflicting pairs ordered:
//   race-free (§2.4); out and out2 elements are each written once by their own thread.
// * The try_wait loop ends: each phase completes when all 128 threads have arrived, which every thread does
//   (the arrive is unconditional), under the fair progress model.
// * Values (§3.6): buf = 3 * in = 3,6,9,0,...; out[t] = buf[127 - t]: out[127] = 3, out[126] = 6, out[125] = 9,
//   out[0] = 0. Then buf[t] = out[t] + 1 (4, 7, 10 at 127, 126, 125, else 1) and out2[t] = buf[(t + 1) % 128]:
//   out2[126] = 4, out2[127] = buf[0] = 1, out2[125] = 7, out2[124] = 10, out2[0] = 1.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

__global__ void phases(const int* in, int* out, int* out2) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int buf[128];
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();

  const int t = static_cast<int>(block.thread_rank());
  buf[t] = 3 * in[t];  // [W]
  bar.arrive_and_wait();  // [A1] the buffer is published
  const int mirror = buf[127 - t];  // [R]
  out[t] = mirror;
  bar.arrive_and_wait();  // [A2] everyone has read it
  buf[t] = mirror + 1;    // [W2]
  bar.arrive_and_wait();  // [A3] the new contents are published
  out2[t] = buf[(t + 1) % 128];  // [R2]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3});
  int* out = device_buffer<int>(128);
  int* out2 = device_buffer<int>(128);
  phases<<<1, dim3(4, 4, 8)>>>(in, out, out2);
  finish();
  print("out", out, 128, {0, 125, 126, 127});
  print("out2", out2, 128, {0, 124, 125, 126, 127});
  return 0;
}
