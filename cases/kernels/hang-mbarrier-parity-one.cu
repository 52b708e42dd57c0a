// A consumer that waits on parity 1 of a freshly initialised mbarrier (the producer-start idiom of CUTLASS, used
// on the consumer side by mistake): try_wait.parity(1) is true while phase 0 is incomplete and false once it
// has completed, so a consumer that polls before the producers arrive reads the buffer unsynchronised, and one
// that polls after they all arrived waits for ever (the fix, waiting on parity 0, is mbarrier-release-arrive.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32]
// ptxmm-expect: race 35 40 no-synchronisation
// ptxmm-expect: hang 38
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: mbarrier.init.shared.b64 [bar], 32; bar.sync 0;
// mbarrier.arrive.release.cta; mbarrier.try_wait.parity.acquire.cta ..., 1):
// * try_wait.parity(P) is true iff ph mod 2 != P (§4.2: parity 1 names the immediately preceding phase while
//   phase 0 is incomplete, and the incomplete phase 1 once phase 0 has completed).
// * Hang: when all 32 producers arrive ([A], line 36) before a consumer's first poll, phase 0 has completed,
//   ph = 1 for ever (no more arrivals), and try_wait.parity(1) at [T] (line 38) is false in every iteration:
//   that consumer spins for ever (issue 13 kind `mbarrier`), in those executions.
// * Race: when a consumer polls before the last arrival, [T] is true at once; the wait reads the mbarrier
//   before the release arrive that completes the phase, so no sw orders [W] (line 35) before [R] (line 40):
//   they race (no synchronisation, §2.4).
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void handoff(int* out) {
  __shared__ int buf[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 32);
  __syncthreads();

  if (t < 32) {  // producer warp
    buf[t] = 100 + t;  // [W]
    (void)ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);  // [A]
  } else {  // consumer warp
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 1)) {  // [T] bug: parity 1 (phase 0 has parity 0)
    }
    out[t - 32] = buf[63 - t];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(32);
  handoff<<<1, 64>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
