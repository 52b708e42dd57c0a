// Warp-specialized hand-off through an mbarrier (seed 004, §2.1.1 "mbarrier.arrive+try_wait"): warp 0
// writes a shared buffer and arrives with release semantics, warp 1 waits with acquire semantics and reads it.
// The fixed sibling of mbarrier-relaxed-arrive.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[32] --assert 'out[0]==131 && out[31]==100'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 (weak write, §4.2),
// bar.sync 0, mbarrier.arrive.release.cta.shared::cta.b64, mbarrier.try_wait.parity.acquire.cta.shared::cta.b64):
// * The init is ordered before every arrive and wait by bar.sync 0 (§2.8 rule 2).
// * [W] (line 32) po [A] (line 33, release arrive: rp1, §4.2). The phase completes with the 32nd arrive; a
//   successful [T] (line 35, acquire wait: ap4) reads the mbarrier after all 32 arrives, which are ms RMWs
//   (.cta, one CTA) linearized by atomicity: each arrive obs the wait (§2.6) and sw it (§2.8 rule 4). So every
//   producer's [W] is in causality order before every consumer's [R] (line 37) (§2.10 C1): no race.
// * Values: buf[p] = 100 + p, out[c] = buf[31 - c]: out[0] = 131, out[31] = 100.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void handoff(int* out) {
  __shared__ int buf[32];
  __shared__ uint64_t bar;
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 32);  // arrival count: the 32 producer threads
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
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
