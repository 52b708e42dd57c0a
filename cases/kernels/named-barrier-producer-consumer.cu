// Warp-specialized producer/consumer with a named barrier whose count matches the participating warps: the
// producer warp arrives (bar.arrive 1, 96), the two consumer warps wait (bar.sync 1, 96). The fixed sibling of
// named-barrier-count-mismatch.cu.
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[64] --assert 'out[0]==10 && out[31]==41 && out[32]==50 && out[63]==81'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: inline asm bar.arrive / bar.sync, id 1, count 96):
// * Barrier 1 with count 96 completes when the three warps have arrived (§4.4): no hang.
// * [W] (line 33) po [A] (line 35, bar.arrive: an arrive half) sw the wait half of every consumer's [B] (line
//   37, bar.sync) of the same barrier and generation (§2.8 rule 2: bar.arrive synchronizes with bar.sync);
//   [B] po [R] (line 38): causality order (§2.10 C1), no race (litmus BAR6, §7.7).
// * Values: stage[l] = 10 + l, stage[32 + l] = 50 + l; consumer warp w reads stage[(w-1)*32 + lane].
#include "host.cuh"

__device__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

constexpr int kStageFull = 1;  // named barrier 1: the stage is full
constexpr int kThreads = 96;   // the producer warp + the two consumer warps

__global__ void warp_specialized(int* out) {
  __shared__ int stage[64];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {  // producer warp
    stage[lane] = 10 + lane;       // [W]
    stage[lane + 32] = 50 + lane;
    named_barrier_arrive(kStageFull, kThreads);  // [A]
  } else {  // consumer warps 1 and 2
    named_barrier_sync(kStageFull, kThreads);    // [B]
    out[(warp - 1) * 32 + lane] = stage[(warp - 1) * 32 + lane];  // [R]
  }
}

int main() {
  int* out = device_buffer<int>(64);
  warp_specialized<<<1, 96>>>(out);
  finish();
  print("out", out, 64, {0, 31, 32, 63});
  return 0;
}
