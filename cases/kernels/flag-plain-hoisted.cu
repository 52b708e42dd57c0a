// Producer/consumer through a plain (non-volatile, non-atomic) global flag with __threadfence() on both sides,
// as seed 003 writes it ("When fences matter"), block 0 producing and block 1 consuming in one kernel. nvcc
// reads the flag once and turns the empty spin loop into an endless loop.
//
// ptxmm-launch: --grid 2 --block 32 --arg output=int32[1]
// ptxmm-expect: race 37 0 no-synchronisation
// ptxmm-expect: hang 39
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; derived from the PTX, which is what ptxmm checks):
// * nvcc -O3 hoists the loop-invariant plain load of `flag` out of `while (flag == 0) {}`: the PTX loads
//   flag once (`ld.global.u32 [flag]`, under `.loc 1 0` — nvcc gives the hoisted load line 0, no source
//   line) and, if it read 0, branches to `$L: bra.uni $L` at line 39. So:
// * Hang: the single load may read the initial 0 (it is weak, and nothing in causality order forces it to
//   see [F], §3.6); the thread then spins at line 39 forever, whatever the producer does: a hang in the
//   executions where it read 0 (issue 13: a loop whose exit is never reached; no fairness helps, the loop
//   reads nothing).
// * Race on the flag: [F] (line 37, weak st) and the hoisted weak ld (line 0) are conflicting accesses of
//   different threads, neither strong (§1.6), not in causality order: no-synchronisation. The race is
//   reported at line 0 because that is the line nvcc emits for the load (see README: line 0).
// * No race on `result`: [W] (line 35) and [R] (line 42) are separated by [F1] and [F2], both fence.sc.gpu
//   and ms, so the Fence-SC order (§2.7) relates them either way: F1 before F2 gives [W] po F1 sw F2 po [R]
//   (causality order, §2.10 C1); F2 before F1 gives flag-load po F2 sw F1 po [F], so the load cannot read 1
//   (Causality, §3.6) and the consumer hangs at line 39 without reaching [R]. This is litmus MP7 (§7.1).
// * `flag` (and `result`) starts at 0: nvcc emits `.global .align 4 .u32 flag;` with no initializer (it drops `= 0`),
//   relying on .global variables being zero-filled at load; the reader must start them at 0.
#include "host.cuh"

__device__ int result;
__device__ int flag = 0;

__global__ void plain_flag(int* output) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    result = 42;      // [W]
    __threadfence();  // [F1] Ensure 'result' is visible before 'flag'
    flag = 1;         // [F]
  } else {  // consumer
    while (flag == 0) {  // [P] Spin until flag is set
    }
    __threadfence();    // [F2] Ensure we see the 'result' write
    *output = result;   // [R] Reads 42?
  }
}

int main() {
  int* output = device_buffer<int>(1);
  plain_flag<<<2, 32>>>(output);
  finish();
  print("output", output, 1, {0});
  return 0;
}
