// A flag polled with a plain (weak) PTX load written in inline asm, so nvcc cannot hoist it out of the loop: the
// producer's st.release.gpu is correct, but a weak poll is never promised to see it. The fix is a strong poll
// (flag-asm-weak-poll-fixed.cu: ld.relaxed.gpu). Litmus counterpart: cases/litmus/ptx/HANG+spin-weak-poll.litmus.
//
// ptxmm-launch: --grid 2 --block 32
// ptxmm-expect: race 31 33 no-synchronisation
// ptxmm-expect: hang 33
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the asm statements are `st.release.gpu.u32` and
// `ld.u32` on the generic address of the global `flag`; the poll is inlined into the loop at line 33, the line
// its accesses are reported on: the kernel's own line of an inlined_at chain):
// * [S] (line 31, strong) and [P] (line 24, reported at 33, weak) conflict across blocks; a weak access is not
//   morally strong with anything of another thread (§2.3) and nothing orders them: a race, no-synchronisation.
// * Hang: eventual visibility is promised only to strong accesses (§1.4; ptx-core.cat `eventually-visible`), and
//   block 1's thread does nothing before the loop that could order [S] before [P]: [P] may read the initial 0 for
//   ever, even once block 0 is done. Under fair progress the loop at line 33 may never end.
#include "host.cuh"

__device__ int flag;

__device__ int poll(const int* p) {
  int v;
  asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");  // [P] a weak load
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
