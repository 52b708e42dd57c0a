// A spin lock from atomicCAS / atomicExch with no fences (seed 003, "Here is a spinlock built with atomicCAS")
// guarding a plain counter increment: the lock excludes, but it publishes nothing (the fix is
// lock-cas-threadfence.cu).
//
// ptxmm-launch: --grid 2 --block 4 --arg counter=int32[1] --assert 'counter[0]==8'
// ptxmm-expect: race 35 35 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.global.cas.b32 and atom.global.exch.b32,
// no sem/scope: .relaxed.gpu, §1.5; the counter is a plain ld.global / st.global on line 35):
// * The lock word is touched only by ms atom.gpu RMWs (§2.3): no race there, and RMW atomicity (§3.3) gives
//   mutual exclusion — each successful CAS reads the exch of the previous holder.
// * But relaxed RMWs form no release or acquire pattern (§2.5): the previous holder's [X] (line 35, ld and
//   st of *counter) is not in causality order before the next holder's [X] (observation without
//   synchronization, §2.8 rule 4 needs the patterns). Weak conflicting accesses of different threads: a race,
//   no-synchronisation (both ends on line 35).
// * The next holder may read a stale count (§3.6 forbids nothing), so counter[0] == 8 is not guaranteed.
// * `lock` starts at 0: nvcc emits `.global .align 4 .u32 lock;` with no initializer (it drops `= 0`),
//   relying on .global variables being zero-filled at load; the reader must start them at 0.
#include "host.cuh"

__device__ int lock = 0;

__device__ void acquire_lock() {
  while (atomicCAS(&lock, 0, 1) != 0) {
    // spin until we successfully swap 0 -> 1
  }
}

__device__ void release_lock() { atomicExch(&lock, 0); }

__global__ void locked_increment(int* counter) {
  acquire_lock();  // [A]
  *counter += 1;   // [X]
  release_lock();  // [U]
}

int main() {
  int* counter = device_buffer<int>(1);
  locked_increment<<<2, 4>>>(counter);
  finish();
  print("counter", counter, 1, {0});
  return 0;
}
