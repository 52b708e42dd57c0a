// cuda::latch<thread_scope_block> as a one-shot fan-in (seed 000, latch_kernel): each thread does its work,
// counts down, waits for the latch, then reads another thread's result. The seed's `__shared__ cuda::latch`
// plus `init(&lat, n)` does not compile (latch has no default constructor and no init()); the latch is built
// with placement new in shared storage instead.
//
// ptxmm-launch: --grid 2 --block 128 --arg out=int32[256] --assert 'out[0]==7 && out[127]==5 && out[255]==5'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the constructor is a plain st.shared.u64 of the
// count; count_down() is atom.add.release.cta.u64 -1; wait() returns only after ld.acquire.cta.b64 reads 0
// (ld.relaxed.cta polls with %globaltimer/nanosleep back-off in between, then an acquire re-load):
// * The constructor's store [N] (line 37) is ordered before every count_down and load by block.sync() =
//   barrier.sync 0 (§2.8 rule 2).
// * [W] (line 42) po [C] (line 43, release RMW: rp1). Wait [T] (line 44) leaves the loop only through an
//   ld.acquire.cta reading 0 (ap1); the count's writes are the ms (.cta, one CTA) RMWs of all 128 threads,
//   linearized, so each [C] obs that load (§2.6) and sw it (§2.8 rule 4): [W] of every thread is in causality
//   order before [R] (line 45) (§2.10 C1). No race.
// * Values: work[t] = 2t + 5, out[b*128 + t] = work[(t+1) % 128]: out[0] = 7, out[127] = out[255] = 5.
#include "host.cuh"

#include <cooperative_groups.h>
#include <cuda/latch>
#include <new>

using Latch = cuda::latch<cuda::thread_scope_block>;

__device__ int do_work(int t) { return 2 * t + 5; }

__global__ void latch_kernel(int* out) {
  __shared__ alignas(Latch) unsigned char lat_storage[sizeof(Latch)];
  __shared__ int work[128];
  Latch& lat = *reinterpret_cast<Latch*>(lat_storage);
  auto block = cooperative_groups::this_thread_block();
  if (block.thread_rank() == 0) {
    new (&lat) Latch(block.size());  // [N] Initialize with expected count
  }
  block.sync();

  const int t = threadIdx.x;
  work[t] = do_work(t);  // [W] Each thread does work then signals completion
  lat.count_down();      // [C] Decrement counter (non-blocking)
  lat.wait();            // [T] Blocks until counter reaches 0
  out[blockIdx.x * blockDim.x + t] = work[(t + 1) % 128];  // [R]
}

int main() {
  int* out = device_buffer<int>(256);
  latch_kernel<<<2, 128>>>(out);
  finish();
  print("out", out, 256, {0, 127, 255});
  return 0;
}
