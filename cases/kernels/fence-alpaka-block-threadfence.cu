// alpaka's block-scope fence example (seed 001, BlockFenceKernel) with __threadfence_block() as the fences:
// the tutorial's claim now holds in PTX, but the plain shared-memory accesses still race.
//
// ptxmm-launch: --grid 1 --block 2 --arg successFlag=uint32[1]=1 --assert 'successFlag[0]==1' --observe 'successFlag[0]'
// ptxmm-expect: race 33 39 no-synchronisation
// ptxmm-expect: race 35 37 no-synchronisation
// ptxmm-expect: assert holds
// ptxmm-expect: observe successFlag[0] 1
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence_block() = membar.cta = fence.sc.cta,
// §1.5; the shared accesses are weak st.shared / ld.shared):
// * Fence-SC (§2.7): thread 0's [F0] (line 34) and thread 1's [F1] (line 38) are fence.sc.cta in one CTA,
//   hence ms and ordered one way or the other, and each order is a sw edge (§2.8 rule 1) — litmus MP7 (§7.1).
//   F0 before F1: [A] po F0 sw F1 po [RA], so [RA] cannot read the initial 1 (Causality, §3.6; the initial
//   store is co-before [A]). F1 before F0: [RB] po F1 sw F0 po [B], so [RB] cannot read 20. Either way
//   (observedA, observedB) != (1, 20): the atomicExch never runs and successFlag[0] stays 1.
// * Races: with F0 before F1, [B] (line 35) and [RB] (line 37) are unordered; with F1 before F0, [A]
//   (line 33) and [RA] (line 39) are. Weak accesses, not ms: two races, no-synchronisation (a race in one
//   permitted execution is a race, §2.4). Exit 1 for the races although the assertion holds.
#include "host.cuh"

__global__ void block_fence(unsigned* successFlag) {
  __shared__ int shared[2];
  const int tid = threadIdx.x;
  if (tid == 0) {
    shared[0] = 1;
    shared[1] = 2;
  }
  __syncthreads();

  if (tid == 0) {
    shared[0] = 10;          // [A]
    __threadfence_block();   // [F0]
    shared[1] = 20;          // [B]
  }
  const int observedB = shared[1];  // [RB]
  __threadfence_block();            // [F1]
  const int observedA = shared[0];  // [RA]

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
