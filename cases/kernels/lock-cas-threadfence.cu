// The atomicCAS / atomicExch spin lock of seed 003 with the fences a lock needs: __threadfence() after taking
// it (acquire side) and before releasing it (release side).
//
// ptxmm-launch: --grid 2 --block 4 --arg counter=int32[1] --assert 'counter[0]==8'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.global.cas.b32, membar.gl,
// atom.global.exch.b32):
// * Holder H: [X] (line 38) po [FR] (fence.sc.gpu) po the exch (strong write): release pattern rp3. Next
//   holder N: its successful CAS (strong read) po [FA] (fence.sc.gpu): acquire pattern ap3 (§2.5, A7).
// * N's CAS reads 0 from H's exch, or from a later exch: the lock word's writes are all ms atom.gpu RMWs
//   linearized by atomicity (§3.3), each reading its predecessor, so H's exch obs N's CAS through that chain
//   (§2.6). The fences are ms (.gpu): FR_H sw FA_N (§2.8 rule 4), and H's [X] is in causality order before
//   N's [X] (§2.10 C1). Every pair of holders is ordered that way: no race, and each increment reads the
//   previous one (§3.6): counter[0] = 8.
// * Failed CAS attempts only read (the value is not 0) and spin: an await that ends under fair scheduling.
// * `lock` starts at 0: nvcc emits `.global .align 4 .u32 lock;` with no initializer (it drops `= 0`),
//   relying on .global variables being zero-filled at load; the reader must start them at 0.
#include "host.cuh"

__device__ int lock = 0;

__device__ void acquire_lock() {
  while (atomicCAS(&lock, 0, 1) != 0) {
  }
  __threadfence();  // see the previous holder's writes
}

__device__ void release_lock() {
  __threadfence();  // publish this holder's writes
  atomicExch(&lock, 0);
}

__global__ void locked_increment(int* counter) {
  acquire_lock();  // [FA] (the fence is in acquire_lock)
  *counter += 1;   // [X]
  release_lock();  // [FR] (the fence is in release_lock)
}

int main() {
  int* counter = device_buffer<int>(1);
  locked_increment<<<2, 4>>>(counter);
  finish();
  print("counter", counter, 1, {0});
  return 0;
}
