// The fixed sibling of flag-asm-weak-poll.cu: the flag is polled with a strong load written in inline asm
// (ld.relaxed.gpu) instead of a weak one. Litmus counterpart: cases/litmus/ptx/HANG+spin-weak-poll-fixed.litmus.
//
// ptxmm-launch: --grid 2 --block 32
// ptxmm-expect: race-free
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the asm statements are `st.release.gpu.u32` and
// `ld.relaxed.gpu.u32` on the generic address of the global `flag`; the poll is inlined into the loop at line 29):
// * [S] (line 27) and [P] (line 20, reported at 29) are both strong, .gpu scope on one GPU: morally strong (§2.3),
//   never a race.
// * Liveness: a morally strong write is eventually visible to a poll (§1.4; ptx-core.cat `eventually-visible`).
//   Block 0 stores 1 in every execution, so under fair progress [P] eventually reads 1 and the loop ends.
#include "host.cuh"

__device__ int flag;

__device__ int poll(const int* p) {
  int v;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");  // [P] a strong load
  return v;
}

__global__ void handoff() {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(&flag), "r"(1) : "memory");  // [S]
  } else {  // consumer
    while (poll(&flag) == 0) {
    }
  }
}

int main() {
  handoff<<<2, 32>>>();
  finish();
  return 0;
}
