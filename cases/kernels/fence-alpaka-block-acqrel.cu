// alpaka's block-scope fence example (seed 001, BlockFenceKernel) in CUDA: thread 0 rewrites two plain
// shared-memory values with a release fence between them; every thread reads them back with an acquire fence
// between the reads. The tutorial claims (observedA, observedB) == (1, 20) "can never happen". The fences are
// libcu++'s cuda::atomic_thread_fence(release/acquire, thread_scope_block).
//
// ptxmm-launch: --grid 1 --block 2 --arg successFlag=uint32[1]=1 --assert 'successFlag[0]==1' --observe 'successFlag[0]'
// ptxmm-expect: race 40 46 no-synchronisation
// ptxmm-expect: race 42 44 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe successFlag[0] 0,1
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: both atomic_thread_fence calls become
// fence.acq_rel.cta — libcu++ 13.0 strengthens release/acquire fences to acq_rel, §5.1 — and the shared
// accesses are plain st.shared / ld.shared, i.e. weak):
// * A release pattern needs a strong write after the fence and an acquire pattern a strong read before it
//   (§2.5 rp3/ap3). [B] (line 42) and [RB] (line 44) are weak, so the fences synchronize nothing (litmus
//   MP6, §7.1) and fence.acq_rel is not in the Fence-SC order (§2.7).
// * Thread 1's [RB] and [RA] (line 46) conflict with thread 0's [B] and [A] (line 40); no barrier lies
//   between them (the __syncthreads() only orders the initial stores), so both pairs are weak, not ms, and not
//   in causality order: two races, no-synchronisation. Thread 0's own reads are po-ordered after its writes.
// * Without causality, thread 1 may read observedB = 20 and observedA = 1 (the initial value, §3.6 forbids
//   nothing here): the atomicExch may run and successFlag[0] may end 0 or 1. The tutorial's claim does not
//   hold in PTX; compare fence-alpaka-block-threadfence.cu (fence.sc: claim holds, races remain) and
//   fence-alpaka-block-atomic.cu (strong accesses: race-free, claim holds).
#include "host.cuh"

#include <cuda/atomic>

__global__ void block_fence(unsigned* successFlag) {
  __shared__ int shared[2];
  const int tid = threadIdx.x;
  if (tid == 0) {  // only one thread is setting initial conditions
    shared[0] = 1;
    shared[1] = 2;
  }
  __syncthreads();  // guarantee that all threads see the initialized shared data

  if (tid == 0) {  // producer
    shared[0] = 10;  // [A]
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_block);
    shared[1] = 20;  // [B]
  }
  const int observedB = shared[1];  // [RB]
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_block);
  const int observedA = shared[0];  // [RA]

  // (observedA, observedB) must be (10, 20) or (1, 2), says the tutorial
  if (observedA == 1 && observedB == 20) {
    atomicExch(&successFlag[0], 0u);  // "can never happen"
  }
}

int main() {
  unsigned* successFlag = device_buffer<unsigned>(1, {1});
  block_fence<<<1, 2>>>(successFlag);
  finish();
  print("successFlag", successFlag, 1, {0});
  return 0;
}
