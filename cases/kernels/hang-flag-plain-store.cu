// A do-while poll with a relaxed .gpu load of a flag that the other block sets with a plain (weak) store: the
// store is not promised to ever become visible to the poll (the fix, hang-flag-plain-store-fixed.cu, stores
// with st.relaxed.gpu).
//
// ptxmm-launch: --grid 2 --block 32 --arg flag=int32[1] --arg out=int32[1]
// ptxmm-expect: race 30 34 no-synchronisation
// ptxmm-expect: hang 35
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress, README "Fairness"; PTX: the
// plain store is st.global.u32 (weak), the poll inline ld.relaxed.gpu.global):
// * Memory fairness is ptx-core.cat `eventually-visible`: a write becomes eventually visible to a read that
//   keeps polling only when the two are morally strong (§2.3, [9.4Δ] §8.6.1). [F] (line 30) is weak, so it is
//   morally strong with nothing: the poll [P] (line 34) may read the initial 0 in every iteration, for ever,
//   even after block 0 has exited: the do-while loop (its test and back edge at [L], line 35) never ends — a
//   hang in those executions.
// * Race: [F] and [P] conflict (same word, one a write), come from different threads, are not morally strong
//   (one is weak, §1.6) and nothing orders them: no-synchronisation (§2.4).
#include "host.cuh"

__device__ int ld_relaxed_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__global__ void handoff(int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *flag = 1;  // [F] bug: a plain store
  } else {
    int v;
    do {
      v = ld_relaxed_gpu(flag);  // [P]
    } while (v == 0);  // [L]
    *out = v;
  }
}

int main() {
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(1);
  handoff<<<2, 32>>>(flag, out);
  finish(5);
  print("out", out, 1, {0});
  return 0;
}
