// alpaka's device-scope publication example (seed 001, ProducerConsumerFenceKernel) in CUDA: three blocks of
// one thread; thread 0 writes the payload, a device-scope release fence, then atomicExch on the ready flag;
// thread 2 polls with atomicCAS(flag, 0, 0), a device-scope acquire fence, then checks the payload.
//
// ptxmm-launch: --grid 3 --block 1 --arg payload=uint32[1] --arg readyFlag=uint32[1] --arg mismatchCounter=uint32[1] --assert 'mismatchCounter[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the fences are fence.acq_rel.gpu, atomicExch and
// atomicCAS are atom.global.exch.b32 / atom.global.cas.b32, .relaxed.gpu by default, §1.5, §5.2):
// * [W] (line 29, weak store of the payload) and [R] (line 36, weak load) conflict across blocks 0 and 2.
// * Producer: [W] po [FR] (fence.acq_rel.gpu) po [X] (atom.exch, strong write) = rp3. Consumer: [P]
//   (atom.cas; its read is a strong read) po [FA] (fence.acq_rel.gpu) = ap3 (§2.5). When [P] reads 1, [X]
//   obs [P] (atom.gpu both: ms, §2.6) and the fences are ms (.gpu, one GPU): FR sw FA (§2.8 rule 4), so [W]
//   is in causality order before [R] (§2.10 C1): no race, the payload reads 42, mismatchCounter stays 0.
// * The poll is an await: while the flag is 0, atomicCAS(flag, 0, 0) writes back the 0 it read (an RMW that
//   leaves memory unchanged, issue 18 scope 4); all flag accesses are ms atomics, never a race.
#include "host.cuh"

#include <cuda/atomic>

__global__ void producer_consumer(unsigned* payload, unsigned* readyFlag, unsigned* mismatchCounter) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (!(tid == 0u || tid == 2u)) {
    return;
  }
  if (tid == 0u) {
    payload[0u] = 42u;  // [W]
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);  // [FR]
    atomicExch(&readyFlag[0u], 1u);  // [X]
  } else {
    while (atomicCAS(&readyFlag[0u], 0u, 0u) == 0u) {  // [P]
    }
    cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);  // [FA]
    if (payload[0u] != 42u) {  // [R]
      atomicAdd(&mismatchCounter[0u], 1u);
    }
  }
}

int main() {
  unsigned* payload = device_buffer<unsigned>(1);
  unsigned* readyFlag = device_buffer<unsigned>(1);
  unsigned* mismatchCounter = device_buffer<unsigned>(1);
  producer_consumer<<<3, 1>>>(payload, readyFlag, mismatchCounter);
  finish();
  print("mismatchCounter", mismatchCounter, 1, {0});
  return 0;
}
