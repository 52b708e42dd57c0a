// The fix of hang-lock-unreleased.cu: every holder releases the lock.
//
// ptxmm-launch: --grid 2 --block 32 --arg counter=int32[1] --assert 'counter[0]==2'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: atom.global.cas.b32,
// membar.gl = fence.sc.gpu, atom.global.exch.b32):
// * Whichever lane 0 takes the lock first at [L] (line 22) releases it at [U] (line 27); the other's CAS is
//   ms with that exch (.gpu RMWs), so the 0 is eventually visible to it and its loop ends; the second holder
//   releases too. Under fair progress the kernel terminates.
// * [X] (line 25) of the first holder po fence.sc po [U] (rp3) obs the second holder's successful CAS po
//   fence.sc (ap3): sw (§2.8), causality order (§2.10): no race, and the second increment reads the first:
//   counter[0] == 2 (as lock-cas-threadfence.cu).
#include "host.cuh"

__device__ int lock = 0;

__global__ void locked_increment(int* counter) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(&lock, 0, 1) != 0) {  // [L]
  }
  __threadfence();
  *counter += 1;  // [X]
  __threadfence();
  atomicExch(&lock, 0);  // [U] every holder releases
}

int main() {
  int* counter = device_buffer<int>(1);
  locked_increment<<<2, 32>>>(counter);
  finish();
  print("counter", counter, 1, {0});
  return 0;
}
