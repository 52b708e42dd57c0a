// Warp-specialized producer/consumer with a named barrier whose thread count was not updated: the kernel went
// from four warps (one producer, three consumers) to three, but the count is still 128. Barrier 1 needs four
// warps and only three ever arrive: the consumers wait forever (the fix is named-barrier-producer-consumer.cu).
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[64]
// ptxmm-expect: race-free
// ptxmm-expect: hang 40
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13; PTX: the inline asm bar.arrive / bar.sync with
// register operands, barrier id 1, count 128):
// * A CTA barrier with a thread count completes when that many threads have arrived; arrival is counted per
//   warp (§4.4). Barrier 1 sees the producer warp's bar.arrive ([A], line 38) and the two consumer warps'
//   bar.sync ([B], line 40): 96 of 128. No other warp exists, so the generation never completes and both
//   consumer warps are stuck at [B] in every execution: a hang (issue 13, "a CTA barrier that not enough
//   threads reach").
// * No race: the consumers' reads [R] (line 41) are never executed; the producer's stores [W] (line 36) have
//   no other conflicting access.
#include "host.cuh"

__device__ void named_barrier_arrive(int id, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ void named_barrier_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

constexpr int kStageFull = 1;   // named barrier 1: the stage is full
constexpr int kThreads = 128;  // bug: the producer warp + three consumer warps of the old layout

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
  finish(5);
  print("out", out, 64, {0, 63});
  return 0;
}
