// The warp-specialized mbarrier hand-off of mbarrier-release-arrive.cu with a relaxed arrive: the wait still
// returns once every producer arrived (execution order), but nothing publishes the producers' stores (memory
// order) — seed 004's opening example ("this execution order does not guarantee any memory order").
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==131 && out[31]==100'
// ptxmm-expect: race 32 37 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.arrive.relaxed.cta.shared::cta.b64, and the
// wait is mbarrier.try_wait.parity.acquire.cta):
// * A relaxed arrive is a strong RMW but no release operation, and no release fence precedes it (§2.5,
//   §4.2): it heads no release pattern, so the acquire wait [T] (line 35) synchronizes with nothing (litmus
//   MB2, §7.8). [W] (line 32) and [R] (line 37) are weak, of different threads, not in causality order: a
//   race, no-synchronisation.
// * [R] may read shared memory's initial value instead of 100 + p (§3.6 forbids nothing): the assertion
//   can fail.
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
    (void)ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar);  // [A] relaxed
  } else {  // consumer warp
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0)) {  // [T]
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
