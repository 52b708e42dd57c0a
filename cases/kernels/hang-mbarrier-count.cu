// An mbarrier initialised for 64 arrivals while only the 32 producer threads arrive: the consumers' try_wait
// loop never sees the phase complete (the fix, hang-mbarrier-count-fixed.cu, lets every thread arrive).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32]
// ptxmm-expect: race-free
// ptxmm-expect: hang 33
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: mbarrier.init.shared.b64 [bar], 64; bar.sync 0;
// mbarrier.arrive.release.cta.shared::cta.b64; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ..., 0):
// * init sets ph = 0, pend = exp = 64 (§4.2). The 32 producer threads arrive once each ([A], line 31):
//   pend = 32 at the end of every execution, so phase 0 never completes and ph stays 0.
// * The consumers (warp 1) poll try_wait.parity(0) at [T] (line 33), true iff ph mod 2 != 0 (§4.2): false for
//   ever once every arrival is made, so warp 1 spins at [T] for ever — a hang (issue 13 kind `mbarrier`).
// * No race: the reads [R] of buf never run; the producers' stores [W] conflict with nothing else.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void handoff(int* out) {
  __shared__ int buf[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 64);  // bug: 64 arrivals expected, 32 come
  __syncthreads();

  if (t < 32) {  // producer warp
    buf[t] = 100 + t;  // [W]
    (void)ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);  // [A]
  } else {  // consumer warp
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0)) {  // [T]
    }
    out[t - 32] = buf[63 - t];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(32);
  handoff<<<1, 64>>>(out);
  finish(5);
  print("out", out, 32, {0, 31});
  return 0;
}
