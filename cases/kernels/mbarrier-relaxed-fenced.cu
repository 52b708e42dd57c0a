// The warp-specialized mbarrier hand-off with relaxed mbarrier operations for execution order and explicit
// fences for memory order (seed 004, §2.1.1 "mbarrier.relaxed.arrive+try_wait + fence.cta"):
// fence.release.cta before the relaxed arrive, fence.acquire.cta after the relaxed wait.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==131 && out[31]==100'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: fence.release.cta; mbarrier.arrive.relaxed.cta;
// mbarrier.try_wait.parity.relaxed.cta; fence.acquire.cta):
// * Producer: [W] (line 32) po [FR] (line 33, fence.release.cta) po [A] (relaxed arrive: a strong write of the
//   mbarrier, §4.2): release pattern rp3 (§2.5). Consumer: the successful relaxed wait [T] (strong read) po
//   [FA] (line 38, fence.acquire.cta): acquire pattern ap3 (litmus MB3/MB4, §7.8).
// * The arrives are ms RMWs of one mbarrier, linearized; the successful wait reads the phase-completing state,
//   so each producer's arrive obs it (§2.6). FR and FA are .cta fences of one CTA: ms, so FR sw FA (§2.8
//   rule 4), and [W] is in causality order before [R] (line 39) (§2.10 C1): no race.
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
    buf[t] = 100 + t;                                  // [W]
    ptx::fence(ptx::sem_release, ptx::scope_cta);      // [FR]
    (void)ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar);  // [A]
  } else {  // consumer warp
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_relaxed, ptx::scope_cta, &bar, 0)) {  // [T]
    }
    ptx::fence(ptx::sem_acquire, ptx::scope_cta);  // [FA]
    out[t - 32] = buf[63 - t];                     // [R]
  }
}

int main() {
  int* out = device_buffer<int>(32);
  handoff<<<1, 64>>>(out);
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
