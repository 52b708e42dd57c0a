// The fix of hang-flag-plain-store.cu: the flag is stored with st.relaxed.gpu, morally strong with the poll.
//
// ptxmm-launch: --grid 2 --block 32 --arg flag=int32[1] --arg out=int32[1] --assert 'out[0]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline st.relaxed.gpu /
// ld.relaxed.gpu):
// * [F] (line 30) and the poll [P] (line 34) are strong .gpu accesses of one word, each scope containing the
//   other's thread: morally strong (§2.3), so [F] is eventually visible to [P] (ptx-core.cat
//   `eventually-visible`) and the do-while loop ends under fair progress.
// * No race: the only conflicting pair is [F]/[P], morally strong (§2.4). The loop leaves only on a non-zero
//   read, and the only non-zero value written is 1: out[0] = 1.
#include "host.cuh"

__device__ int ld_relaxed_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.relaxed.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_relaxed_gpu(int* ptr, int val) {
  asm volatile("st.relaxed.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__global__ void handoff(int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    st_relaxed_gpu(flag, 1);  // [F]
  } else {
    int v;
    do {
      v = ld_relaxed_gpu(flag);  // [P]
    } while (v == 0);
    *out = v;
  }
}

int main() {
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(1);
  handoff<<<2, 32>>>(flag, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
