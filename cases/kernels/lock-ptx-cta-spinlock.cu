// The PTX spin lock of seed 000 (atom.acquire.cta.shared::cta.cas to take it, atom.release.cta.shared::cta.exch
// to release it) guarding a shared-memory counter that every thread of the block increments; thread 0 then
// copies the count out.
//
// ptxmm-launch: --grid 2 --block 32 --arg out=int32[2] --assert 'out[0]==32 && out[1]==32'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX: the asm text verbatim):
// * The seed passes a generic 64-bit pointer ("l"(mutex)) to an instruction whose address operand is in the
//   .shared::cta state space, which PTX does not allow (a .shared address is a shared-window offset, not a
//   generic address). This version converts it with __cvta_generic_to_shared and passes a 32-bit "r" operand.
// * [Z] (line 43) initializes mutex and count with plain stores, ordered before everything by bar.sync
//   (§2.8 rule 2).
// * Holder H: [X] (line 50, weak ld/st of count) po [U] (atom.release.cta: rp1). Next holder N: [A]
//   (atom.acquire.cta, successful: ap1) po [X]. N's [A] reads 0 from H's [U] or a later release; the mutex
//   word's writes are ms RMWs of one CTA (.cta scope, same CTA, §2.3) linearized by atomicity (§3.3), so
//   H's [U] obs N's [A] (§2.6) and [U] sw [A] (§2.8 rule 4): H's [X] is in causality order before N's [X].
//   No race; every increment reads the previous one: count = 32 per block. The second bar.sync orders the
//   last increment before thread 0's [O] (line 54).
#include "host.cuh"

__device__ void acquire_lock(unsigned mutex) {
  int ret;
  do {
    asm volatile("atom.acquire.cta.shared::cta.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(ret)
                 : "r"(mutex), "r"(0), "r"(1)
                 : "memory");
  } while (ret != 0);
}

__device__ void release_lock(unsigned mutex) {
  [[maybe_unused]] int ret;
  asm volatile("atom.release.cta.shared::cta.exch.b32 %0, [%1], %2;" : "=r"(ret) : "r"(mutex), "r"(0) : "memory");
}

__global__ void count_under_lock(int* out) {
  __shared__ int mutex;
  __shared__ int count;
  if (threadIdx.x == 0) {
    mutex = 0;  // [Z]
    count = 0;
  }
  __syncthreads();

  const unsigned m = static_cast<unsigned>(__cvta_generic_to_shared(&mutex));
  acquire_lock(m);  // [A]
  count += 1;       // [X] critical section (block)
  release_lock(m);  // [U]

  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;  // [O]
}

int main() {
  int* out = device_buffer<int>(2);
  count_under_lock<<<2, 32>>>(out);
  finish();
  print("out", out, 2, {0, 1});
  return 0;
}
