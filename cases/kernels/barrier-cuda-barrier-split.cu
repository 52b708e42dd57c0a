// cuda::barrier<thread_scope_block> with split arrive/wait (seed 000, barrier_example): each thread writes its
// shared slot, arrives, does independent work, waits, then reads a neighbour's slot.
//
// ptxmm-launch: --grid 1 --block 256 --arg out=int32[256] --assert 'out[0]==4 && out[254]==65790 && out[255]==768'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: init() is mbarrier.init.shared.b64 (a weak write,
// §4.2) followed by block.sync() = barrier.sync 0; arrive() is mbarrier.arrive.shared::cta.b64, whose default
// semantics are .release.cta; wait() loops on mbarrier.try_wait.shared.b64 (default .acquire.cta) with
// %globaltimer/nanosleep back-off):
// * The init is ordered before every arrive and wait by barrier.sync 0 (§2.8 rule 2).
// * [W] (line 41) po [A] (line 42, release arrive: rp1). The phase completes with the 256th arrive; a
//   successful [T] (line 44, acquire try_wait: ap4/ap1, §4.2) reads the mbarrier after all of them. The
//   arrives are RMWs of one mbarrier by threads of its CTA at .cta scope: morally strong, linearized, each
//   reading its predecessor, so every arrive obs the successful wait (§2.6) and sw it (§2.8 rule 4). So
//   [W] of thread u is in causality order before [R] (line 45) of thread t (§2.10 C1): no race.
// * The programming guide promises an SC fence at arrive; the PTX is a release arrive, which is what the
//   model uses (reading A14) and all this kernel needs.
// * Values: smem[t] = t*t, local = 3t + 3, out[t] = smem[(t+1) % 256] + local: out[0] = 1 + 3 = 4,
//   out[254] = 255*255 + 765 = 65790, out[255] = smem[0] + 768 = 768.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

__device__ int compute(int t) { return t * t; }
__device__ int expensive_compute(int t) { return 3 * t + 3; }

__global__ void barrier_example(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int smem[256];
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();

  const int t = threadIdx.x;
  smem[t] = compute(t);               // [W] Write to shared memory
  auto token = bar.arrive();          // [A] Signal "I'm done writing"
  int local = expensive_compute(t);   // Do independent work while others arrive
  bar.wait(std::move(token));         // [T] Now wait for all arrivals
  out[t] = smem[(t + 1) % 256] + local;  // [R] Safe to read shared memory
}

int main() {
  int* out = device_buffer<int>(256);
  barrier_example<<<1, 256>>>(out);
  finish();
  print("out", out, 256, {0, 254, 255});
  return 0;
}
