// alpaka's block-scope fence example (seed 001, BlockFenceKernel) made race-free: the second phase's shared
// accesses go through cuda::atomic_ref<int, thread_scope_block> with memory_order_relaxed, so the release and
// acquire fences have strong accesses to synchronize through.
//
// ptxmm-launch: --grid 1 --block 2 --arg successFlag=uint32[1]=1 --assert 'successFlag[0]==1' --observe 'successFlag[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe successFlag[0] 1
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: relaxed atomic_ref<block> loads and stores are
// ld.relaxed.cta / st.relaxed.cta, the fences fence.acq_rel.cta):
// * All accesses of the second phase ([A] line 35, [B] line 37, [RB] line 39, [RA] line 41) are strong
//   .cta operations of one CTA, mutually in scope: morally strong (§2.3), so no pair races. The initial plain
//   stores are ordered before them by bar.sync (§2.8 rule 2).
// * [F0] po [B] (strong write) is release pattern rp3; [RB] (strong read) po [F1] is ap3 (§2.5). When [RB]
//   reads 20, [B] obs [RB] and F0 sw F1 (both fences .cta in the CTA: ms, §2.8 rule 4), so [A] is in
//   causality order before [RA] (§2.10 C1): observedA = 10, never 1 (§3.6). When [RB] reads 2, the test
//   fails on observedB. successFlag[0] stays 1.
#include "host.cuh"

#include <cuda/atomic>

__global__ void block_fence(unsigned* successFlag) {
  __shared__ int shared[2];
  const int tid = threadIdx.x;
  if (tid == 0) {
    shared[0] = 1;
    shared[1] = 2;
  }
  __syncthreads();

  cuda::atomic_ref<int, cuda::thread_scope_block> a(shared[0]), b(shared[1]);
  if (tid == 0) {
    a.store(10, cuda::std::memory_order_relaxed);  // [A]
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_block);  // [F0]
    b.store(20, cuda::std::memory_order_relaxed);  // [B]
  }
  const int observedB = b.load(cuda::std::memory_order_relaxed);  // [RB]
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_block);  // [F1]
  const int observedA = a.load(cuda::std::memory_order_relaxed);  // [RA]

  if (observedA == 1 && observedB == 20) {
    atomicExch(&successFlag[0], 0u);
  }
}

int main() {
  unsigned* successFlag = device_buffer<unsigned>(1, {1});
  block_fence<<<1, 2>>>(successFlag);
  finish();
  print("successFlag", successFlag, 1, {0});
  return 0;
}
