// A spin lock that block 1 never releases: if block 1 takes it first, block 0 spins on atomicCAS for ever (the
// fix is hang-lock-unreleased-fixed.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg counter=int32[1]
// ptxmm-expect: race-free
// ptxmm-expect: hang 26
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: atom.global.cas.b32
// (relaxed.gpu) in the acquire loop, membar.gl = fence.sc.gpu, atom.global.exch.b32 to release):
// * Lane 0 of each block takes the lock with the CAS loop [L] (line 26). Block 1's thread never releases it
//   ([U], line 31, runs only in block 0). In the executions where block 1's CAS wins first, the lock stays 1
//   for ever: block 0's CAS reads 1 in every later iteration (it is the last write of the lock, and the
//   writes are ms .gpu RMWs, so nothing else can be read once it is visible) and loops — a hang at [L].
//   (When block 0 wins first it releases, block 1 takes the lock and the kernel ends: the hang is in some
//   executions, which is what `hang` claims.)
// * No race: the increments [X] (line 29) of the two holders are ordered as in lock-cas-threadfence.cu:
//   fence.sc;exch (rp3) obs cas;fence.sc (ap3) when block 0 holds first; when block 1 holds first block 0 never
//   gets past [L].
#include "host.cuh"

__device__ int lock = 0;

__global__ void locked_increment(int* counter) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(&lock, 0, 1) != 0) {  // [L]
  }
  __threadfence();
  *counter += 1;  // [X]
  __threadfence();
  if (blockIdx.x == 0) atomicExch(&lock, 0);  // [U] bug: block 1 keeps the lock
}

int main() {
  int* counter = device_buffer<int>(1);
  locked_increment<<<2, 32>>>(counter);
  finish(5);
  print("counter", counter, 1, {0});
  return 0;
}
