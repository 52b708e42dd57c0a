// Three-stage cp.async main loop over a double buffer (the Ampere pipelined GEMM shape): each thread prefetches
// its element of the next stage with __pipeline_memcpy_async, commits, waits with __pipeline_wait_prior(1) for
// the stage it is about to read, __syncthreads(), reads an element another warp copied, and __syncthreads()
// again before that buffer is refilled. The fixed sibling of cpasync-ring3-wait-prior-two.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[192]=1,10,100 --arg out=int32[64] --assert 'out[63]==111 && out[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.ca.shared.global [..], [..], 4, 4;
// cp.async.commit_group; cp.async.wait_group 1; bar.sync 0; ld.shared.u32; the loop is unrolled 3 times):
// * Group g0 = the prologue copy [P] (line 35) into buf[0][t]; iteration k commits g(k+1) = the copy [C]
//   (line 38) of stage k+1 into buf[(k+1)&1][t] (an empty group in the last iteration). At iteration k, g0..g(k+1)
//   are committed and wait_group 1 ([G], line 40) retires all but the newest, g(k+1): g(k), the stage read at
//   k, is retired (§4.6: adone edges from its AW to the WG event, reading A8).
// * Thread 63-t reads the element thread t copied ([R], line 42): AW (thread t) adone WG po bar.sync ([S1],
//   line 41) sw bar.sync of thread 63-t po [R] (§2.8 rule 2, §4.4): causality order in the generic proxy
//   (§2.10 C1), no race; [R] reads the copied value.
// * WAR: the copy [C] of iteration k writes buf[(k+1)&1], last read at iteration k-1; that read is po before
//   the second bar.sync ([S2], line 43) of iteration k-1, which every thread passes before it issues [C] (iss
//   edges from po-earlier events, §4.6): the read is ordered before the async write, no race.
// * Values: thread t copies in[3t+k] in stage k, thread 63 reads thread 0's: out[63] = 1 + 10 + 100 = 111;
//   out[0] sums in[189..191] = 0.
#include "host.cuh"

#include <cuda_pipeline.h>

constexpr int kStages = 3;

__global__ void ring(const int* in, int* out) {
  __shared__ int buf[2][64];
  const int t = threadIdx.x;
  int acc = 0;
  __pipeline_memcpy_async(&buf[0][t], &in[t * kStages], sizeof(int));  // [P]
  __pipeline_commit();
  for (int k = 0; k < kStages; ++k) {
    if (k + 1 < kStages) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[t * kStages + k + 1], sizeof(int));  // [C]
    __pipeline_commit();
    __pipeline_wait_prior(1);   // [G] every group but the newest has landed: stage k is here
    __syncthreads();            // [S1] ... for every thread
    acc += buf[k & 1][63 - t];  // [R]
    __syncthreads();            // [S2] stage k is read before iteration k+1 refills its buffer
  }
  out[t] = acc;
}

int main() {
  int* in = device_buffer<int>(192, {1, 10, 100});
  int* out = device_buffer<int>(64);
  ring<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
