// One mbarrier reused for two bulk loads (phase 0 fills tile a, phase 1 tile b): every thread waits with the
// parity of the phase it needs, and a __syncthreads() between the first read and re-arming the barrier makes
// sure no thread still waits for phase 0 when phase 1 can complete. The fixed sibling of
// mbarrier-bulk-two-phase-stale-parity.cu and hang-mbarrier-bulk-phase-lapped.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[128]=1,2,3 --arg out=int32[64] --assert 'out[63]==1 && out[62]==2 && out[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 [..], 1;
// fence.proxy.async.shared::cta; bar.sync 0; mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 256;
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes; mbarrier.try_wait.parity.shared::cta.b64
// (default .acquire.cta) with parity 0, then 1):
// * Phase 0: thread 0's [E0] (line 45) arrives (the only expected arrival) and adds 256 to tx; the copy [L0]
//   (line 46) writes a in the async proxy and its implicit complete_tx (release .cluster, thread 0's) takes tx
//   back to 0: the phase completes. A true [T0] (line 48, parity 0) observes it: AW adone proxy fence adone
//   complete_tx obs [T0] po [R0] (line 50): the tracked path (§4.7, ptx-core.cat `tracked`), proxy-preserved
//   (§2.10): no race (litmus MB7).
// * [S] (line 51) is passed by every thread only after its [T0] returned true, and [E1] (line 53) re-arms
//   the barrier only after [S]: phase 1 cannot complete before every thread has seen phase 0, so no thread
//   polls parity 0 at phase 2 (try_wait.parity(P) = (ph mod 2 != P), §4.2): every [T0] ends.
// * Phase 1 likewise: [E1] + [L1] (line 54, tile b), [T1] (line 56, parity 1) true only at ph = 2 (ph
//   never exceeds 2), then [R1] (line 58): no race; [T1] ends since phase 1 completes unconditionally.
// * The init reaches the other threads through [S0] (line 43), bar.sync.
// * Values: out[t] = a[63-t] + b[63-t] = in[63-t] + in[127-t]: out[63] = 1, out[62] = 2, out[0] = 0.
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
