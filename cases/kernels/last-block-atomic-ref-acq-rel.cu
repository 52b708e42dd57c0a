// "Last block" reduction with cuda::atomic_ref: each block's thread 0 stores its partial sum, then increments a
// device-scope counter with fetch_add(memory_order_acq_rel); the block that sees the count reach gridDim.x - 1
// sums the partials. The release/acquire RMW chain replaces __threadfence() (the bug, memory_order_relaxed, is
// last-block-atomic-ref-relaxed.cu).
//
// ptxmm-launch: --grid 3 --block 32 --arg in=int32[3]=1,2,3 --arg partial=int32[3] --arg count=uint32[1] --arg out=int32[1] --assert 'out[0]==60 && count[0]==3'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [P] st.global.u32, [C] atom.add.acq_rel.gpu.u32 on a
// generic address (libcu++, §5.1), [Q] ld.global.u32 in the unrolled loop, [O] st.global.u32):
// * The three [C]s (line 28) are ms .gpu RMWs: totally ordered, each reads its predecessor (§3.3); exactly one reads
//   2 (= gridDim.x - 1) and only that block runs [Q] (line 32) and [O] (line 34).
// * For a block b whose [C] comes before the last block's [C]: [P] of b (line 26) po [C]_b, a release (pattern rp1,
//   §2.5); the last [C] is an acquire and reads [C]_b's write directly or through the intervening ms RMWs: [C]_b obs
//   [C]_last (§2.6: msrf ; (rmw ; msrf)*), so [C]_b sw [C]_last (§2.8 rule 4), and [P]_b po;sw;po [Q]_last: causality
//   order (§2.10 C1). The last block reads its own [P] in program order. No unordered conflicting pair: race-free.
// * [Q] reads every block's partial (§3.6): 10 + 20 + 30 = 60; count ends at 3.
#include "host.cuh"

#include <cuda/atomic>

__global__ void last_block_sum(const int* in, int* partial, unsigned* count, int* out) {
  if (threadIdx.x != 0) return;
  partial[blockIdx.x] = in[blockIdx.x] * 10;  // [P]
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*count);
  const unsigned prev = counter.fetch_add(1, cuda::std::memory_order_acq_rel);  // [C]
  if (prev == gridDim.x - 1) {  // the last block to arrive
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) {
      sum += partial[b];  // [Q]
    }
    *out = sum;  // [O]
  }
}

int main() {
  int* in = device_buffer<int>(3, {1, 2, 3});
  int* partial = device_buffer<int>(3);
  unsigned* count = device_buffer<unsigned>(1);
  int* out = device_buffer<int>(1);
  last_block_sum<<<3, 32>>>(in, partial, count, out);
  finish();
  print("out", out, 1, {0});
  print("count", count, 1, {0});
  return 0;
}
