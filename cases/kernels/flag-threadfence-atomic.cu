// Producer/consumer across blocks, method 1 of seed 000: __threadfence() + atomicExch to publish, a polling
// atomicAdd(&flag, 0) + __threadfence() to consume, on global variables as in the seed (one kernel, block 0
// produces, block 1 consumes).
//
// ptxmm-launch: --grid 2 --block 32 --arg result=int32[1] --assert 'result[0]==42'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: membar.gl, atom.global.exch.b32 and
// atom.global.add.u32 with no sem/scope, i.e. .relaxed.gpu, §1.5, §5.2):
// * [W] (line 31) stores the global `data` (weak); [R] (line 38) loads it in block 1: a conflict that needs
//   causality order.
// * Producer: [W] po [F1] (fence.sc.gpu) po [X] (atom.exch: strong write) = release pattern rp3 (§2.5, A7).
//   Consumer: [P] (atom.add 0: its read is a strong read, not a red) po [F2] (fence.sc.gpu) = acquire pattern
//   ap3. When [P] reads 1, [X] obs [P] (both atom.gpu, ms, §2.6) and F1, F2 are ms fence.sc.gpu: F1 sw F2
//   (§2.8 rule 4): [W] is in causality order before [R] (§2.10 C1). [R] is reached only after [P] read 1.
// * The failed polls write the value they read (atom.add 0): they are RMWs on `flag` like [X], all ms, never
//   a race; the loop is an await (issue 18 scope 4) and ends under fair scheduling once [X] is visible.
// * result[0] = 42 in every execution (§3.6).
// * `flag` (and `data`) starts at 0: nvcc emits `.global .align 4 .u32 flag;` with no initializer (it drops `= 0`),
//   relying on .global variables being zero-filled at load; the reader must start them at 0.
#include "host.cuh"

__device__ int data;
__device__ int flag;

__global__ void handoff(int* result) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    data = 42;             // [W]
    __threadfence();       // [F1]
    atomicExch(&flag, 1);  // [X]
  } else {  // consumer
    while (atomicAdd(&flag, 0) == 0) {  // [P]
    }
    __threadfence();  // [F2]
    *result = data;   // [R]
  }
}

int main() {
  int* result = device_buffer<int>(1);
  handoff<<<2, 32>>>(result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
