// Bug: the two-phase bulk-load kernel of mbarrier-bulk-two-phase.cu without the __syncthreads() between the
// first read and re-arming the barrier ("phase lapping"): thread 0 may re-arm and the second copy complete
// phase 1 before a slower thread polls phase 0 for the first time; that thread then sees parity 0 as false for
// ever (only the current and the immediately preceding phase can be waited on).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[128]=1,2,3 --arg out=int32[64]
// ptxmm-expect: race-free
// ptxmm-expect: hang 41
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, minus the second bar.sync):
// * Thread 0 passes [T0] (line 41) once phase 0 completed (ph = 1), then [E1] (line 45) arrives and [L1]
//   (line 46) completes phase 1: ph = 2 — nothing makes it wait for the other threads (§4.2: a wait true for
//   its own phase is all the rule "one wait per phase before the next arrive" asks, so this is defined).
// * A thread whose first poll of [T0] comes after that reads ph = 2: try_wait.parity(0) = (2 mod 2 != 0) is
//   false, and stays false (no third phase): it spins at [T0] for ever in that execution — a hang.
// * No race: every thread that passes [T0] reads a ([R0], line 43) after phase 0 completed, and b ([R1],
//   line 50) after [T1] (line 48, parity 1, true only at ph = 2) as in the fixed sibling; [L0] (line 39)
//   and [L1] write different tiles.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void two_phase(const int* in, int* out) {
  __shared__ alignas(128) int a[64];
  __shared__ alignas(128) int b[64];
  __shared__ uint64_t bar;
  constexpr uint32_t bytes = sizeof(a);
  const int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();  // [S0]
  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);  // [E0]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, a, in, bytes, &bar);  // [L0]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T0]
  }
  const int x = a[63 - t];  // [R0]
  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);  // [E1]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, b, in + 64, bytes, &bar);  // [L1]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 1)) {  // [T1]
  }
  out[t] = x + b[63 - t];  // [R1]
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3});
  int* out = device_buffer<int>(64);
  two_phase<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 62, 63});
  return 0;
}
