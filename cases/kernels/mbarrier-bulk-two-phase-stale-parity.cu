// Bug: the two-phase bulk-load kernel of mbarrier-bulk-two-phase.cu with the second wait polling parity 0
// again (a phase bit that is never flipped, the most common mbarrier bug): at ph = 1 it is true at once, so the
// second tile is read before its copy lands; a thread that first polls after phase 1 completed (ph = 2) sees
// false for ever.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[128]=1,2,3 --arg out=int32[64]
// ptxmm-expect: race 49 53 different-proxies
// ptxmm-expect: hang 51
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, the second
// mbarrier.try_wait.parity.shared::cta.b64 with parity 0):
// * try_wait.parity(P) is true iff ph mod 2 != P (§4.2). After [S] (line 46) every thread has seen phase 0
//   complete (ph >= 1). [T1] (line 51) polls parity 0: true while ph = 1, i.e. possibly before [E1]
//   (line 48) and the complete_tx of [L1] (line 49) completed phase 1. Such a true wait reads a state no
//   complete_tx of [L1] wrote, so nothing orders the async write of b before [R1] (line 53): a race between
//   the async-proxy write and the generic read, kind different-proxies (ptx-core.cat: proxies first).
// * Hang: thread 0 re-arms at [E1] and the copy may complete phase 1 (ph = 2) before another thread's first
//   poll of [T1]; from then on parity 0 is false in every poll (no further phase exists), so that thread spins
//   at [T1] for ever in that execution.
// * Phase 0 ([E0] line 40, [L0] line 41, [T0] line 43, [R0] line 45) is as in the fixed sibling: no race there.
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
  __syncthreads();  // [S] every thread has seen phase 0 before it is re-armed
  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);  // [E1]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, b, in + 64, bytes, &bar);  // [L1]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T1] BUG: parity of phase 0 again
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
