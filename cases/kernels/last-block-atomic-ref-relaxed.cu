// "Last block" reduction with cuda::atomic_ref whose counter increment is fetch_add(memory_order_relaxed): the
// counter itself is exact, but it publishes nothing, so the last block may sum stale partials (the fix,
// memory_order_acq_rel, is last-block-atomic-ref-acq-rel.cu).
//
// ptxmm-launch: --grid 3 --block 32 --arg in=int32[3]=1,2,3 --arg partial=int32[3] --arg count=uint32[1] --arg out=int32[1] --assert 'out[0]==60 && count[0]==3'
// ptxmm-expect: race 25 31 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [P] st.global.u32, [C] atom.add.relaxed.gpu.u32 on a
// generic address (libcu++, §5.1), [Q] ld.global.u32 in the unrolled loop, [O] st.global.u32):
// * The three [C]s (line 27) are ms .gpu RMWs: totally ordered, each reads its predecessor (§3.3); exactly one reads
//   2 and only that block runs [Q] (line 31); count ends at 3 in every execution.
// * [C] is relaxed: neither a release nor an acquire pattern (§2.5), and no fence surrounds it, so no sw (§2.8)
//   joins block b's [P] (line 25) to the last block's [Q] of partial[b]. Both weak, different CTAs, conflicting:
//   a data race, no-synchronisation (§2.4), lines 25 and 31.
// * [Q] may read the initial 0 of another block's partial (§3.6): out[0] can be 60, 50, 40, 30 ... and the
//   assertion (out[0] == 60 && count[0] == 3) can fail.
#include "host.cuh"

#include <cuda/atomic>

__global__ void last_block_sum(const int* in, int* partial, unsigned* count, int* out) {
  if (threadIdx.x != 0) return;
  partial[blockIdx.x] = in[blockIdx.x] * 10;  // [P]
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter(*count);
  const unsigned prev = counter.fetch_add(1, cuda::std::memory_order_relaxed);  // [C] bug: no release/acquire
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
