// Three warps sync on named barrier 1 with a thread count of 64 (two warps): the first two warps to arrive
// complete a generation, the third starts a new one that nobody else joins (the fix is
// hang-named-barrier-short-count-fixed.cu: the count is the 96 threads that use it).
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[96]
// ptxmm-expect: race 28 30 no-synchronisation
// ptxmm-expect: hang 29
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13; PTX: inline `bar.sync 1, 64` with register
// operands):
// * A counted barrier completes a generation when `b` = 64 threads, i.e. two warps, have arrived (§4.4; arrival
//   is per warp). All three warps reach [B] (line 29) once: whichever two arrive first complete generation 0;
//   the third warp's arrival opens generation 1, which needs another warp, and none comes. A counted barrier
//   gets no release from exiting threads (NOTES.md): that warp waits at [B] for ever, in every execution.
// * Race: [W] (line 28) stores s[t], [R] (line 30) reads s[95 - t], another warp's slot. When warps 0 and 1
//   complete generation 0, warp 0 reads s[95..64], which warp 2 stores before its own (later) arrival: no
//   barrier generation joins them, nothing else orders them — [W] and [R] race (no synchronisation, §2.4).
#include "host.cuh"

__device__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__global__ void three_warps(int* out) {
  __shared__ int s[96];
  const int t = threadIdx.x;
  s[t] = 1000 + t;            // [W]
  named_barrier_sync(1, 64);  // [B] bug: 64 threads, but three warps (96 threads) use barrier 1
  out[t] = s[95 - t];         // [R]
}

int main() {
  int* out = device_buffer<int>(96);
  three_warps<<<1, 96>>>(out);
  finish(5);
  print("out", out, 96, {0, 95});
  return 0;
}
