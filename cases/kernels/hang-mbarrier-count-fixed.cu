// The fix of hang-mbarrier-count.cu: the mbarrier still expects 64 arrivals, and now the 32 consumer threads
// arrive too (with relaxed arrivals, which publish nothing of their own) before they wait.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==131 && out[31]==100'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: mbarrier.init.shared.b64 [bar], 64; bar.sync 0;
// mbarrier.arrive.release.cta / mbarrier.arrive.relaxed.cta; mbarrier.try_wait.parity.acquire.cta ..., 0):
// * 32 producer arrivals ([A], line 33) and 32 consumer arrivals ([C], line 35): pend reaches 0 with tx = 0,
//   phase 0 completes and ph = 1 (§4.2). try_wait.parity(0) at [T] (line 36) is then true; every mbarrier
//   operation is eventually visible to a wait on the same mbarrier (ptx-core.cat `eventually-visible`), so
//   the consumers' loop ends under fair progress.
// * [W] (line 32) po [A] (release arrive, rp1); the phase's arrivals are RMWs of one word, so [A] obs the
//   wait [T] that reads the completed phase (ap1, acquire): sw (§4.2, §2.8 rule 4), [W] in causality order
//   before [R] (line 38): no race, and [R] reads [W]: out[0] = buf[31] = 131, out[31] = buf[0] = 100.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void handoff(int* out) {
  __shared__ int buf[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 64);  // every thread of the block arrives
  __syncthreads();

  if (t < 32) {  // producer warp
    buf[t] = 100 + t;  // [W]
    (void)ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar);  // [A]
  } else {  // consumer warp
    (void)ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar);  // [C]
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
