// A grid-wide counter incremented through cuda::atomic_ref<int, thread_scope_block>: fine inside one block,
// but the other block increments the same word, and block-scope atomics of different blocks are not atomic
// with respect to each other (seed 000, "Thread Scopes"; the fix is atomic-ref-device-scope.cu).
//
// ptxmm-launch: --grid 2 --block 2 --arg in=int32[4] --arg hits=int32[1] --assert 'hits[0]==4' --observe 'hits[0]'
// ptxmm-expect: race 30 30 scope-too-narrow
// ptxmm-expect: assert fails
// ptxmm-expect: observe hits[0] 2,3,4
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: fetch_add(relaxed) on atomic_ref<int, block> is
// atom.add.relaxed.cta.s32 on a generic address):
// * [C] (line 30) is a strong RMW with .cta scope. Two of them in different blocks conflict (same word, both
//   write) and are strong, but neither's scope contains the other's thread: not morally strong (§2.3), and no
//   synchronization orders them: a race of kind scope-too-narrow (ptx-core.cat race-scope: both strong, same
//   proxy and address). Both ends are line 30.
// * Atomicity holds only between ms RMWs (§3.3): the two increments of one block are linearized, the blocks'
//   increments are not (litmus AT2, §7.6). Each block's second RMW must read a write other than the initial 0
//   (reading 0 would put the block's first RMW between its read and write), so it writes at least 2; the
//   co-maximal writes (final values, §2.12) are the blocks' second RMWs: hits[0] ends 2, 3 or 4 — e.g. 2 when
//   each block's chain starts from 0 unaware of the other, 3 when one chain starts from the other's first.
#include "host.cuh"

#include <cuda/atomic>

__global__ void count_nonnegative(const int* in, int* hits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] >= 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block> h(*hits);  // bug: blocks share the counter
    h.fetch_add(1, cuda::std::memory_order_relaxed);           // [C]
  }
}

int main() {
  int* in = device_buffer<int>(4);
  int* hits = device_buffer<int>(1);
  count_nonnegative<<<2, 2>>>(in, hits);
  finish();
  print("hits", hits, 1, {0});
  return 0;
}
