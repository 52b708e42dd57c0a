// Flag hand-off between two blocks through a volatile flag with __threadfence() on both sides: "CORRECT: use
// fence" (seed 000, Volatile vs Atomic vs Fence), with the consumer's fence the pattern needs.
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[1] --assert 'out[0]==42' --observe 'out[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[0] 42
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence() = membar.gl, the flag accesses are
// st.volatile / ld.volatile):
// * membar.gl is fence.sc.gpu (§1.5), which heads release patterns and ends acquire patterns (reading A7).
//   Producer: [W] po [F1] po [F] (st.volatile = relaxed.sys, strong write): release pattern rp3 (§2.5).
//   Consumer: [P] (ld.volatile, strong read) po [F2]: acquire pattern ap3.
// * When [P] reads 1, [F] obs [P] (ms: both relaxed.sys, §2.3, §2.6), and F1, F2 are fence.sc.gpu of one GPU
//   (ms): F1 sw F2 (§2.8 rule 4). So [W] po F1 sw F2 po [R]: base causality, generic, same address:
//   causality order (§2.10 C1). [R] is only reached after [P] read 1 (the loop exits only then), so in every
//   execution that reaches [R] the pair is ordered: no race, and [R] reads 42 (§3.6).
// * The flag accesses are volatile on both sides (ms): no race on the flag.
#include "host.cuh"

__global__ void publish_volatile(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    *data = 42;        // [W]
    __threadfence();   // [F1]
    *flag = 1;         // [F] Other SM sees data=42 when flag=1
  } else {  // consumer
    while (*flag == 0) {  // [P]
    }
    __threadfence();  // [F2]
    *out = *data;     // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(1);
  publish_volatile<<<2, 32>>>(data, flag, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
