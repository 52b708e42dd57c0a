// Flag hand-off between two blocks through a volatile flag, fenced with __threadfence_block() (membar.cta) instead of
// __threadfence(): the fence's scope is the CTA, too narrow for a consumer in another block (the fix is
// flag-volatile-threadfence.cu, the same kernel with __threadfence()).
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[1] --assert 'out[0]==42' --observe 'out[0]'
// ptxmm-expect: race 26 33 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[0] 0,42
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [W] st.global.u32, [F1] membar.cta = fence.sc.cta,
// [F] st.volatile.global.u32, [P] ld.volatile.global.u32 poll, [F2] membar.cta, [R] ld.global.u32):
// * [F] and [P] are volatile = relaxed.sys (§1.5): strong, ms with each other, no race; [P] is guaranteed to see
//   [F] eventually (ms, ptx-core.cat eventually-visible): no hang.
// * [F1] po [F] is a release pattern (rp3) and [P] po [F2] an acquire pattern (ap3) (§2.5), but sw_ra needs the
//   pattern ends — the two fences — to be morally strong (§2.8 rule 4), and fence.sc.cta in CTA 0 and in CTA 1 are
//   not (neither scope contains the other thread, §2.3); for the same reason they are not related by Fence-SC
//   order (§2.7), so rule 1 gives nothing either. No sw: [W] (line 26) and [R] (line 33) are weak, conflicting and
//   unordered: a data race, no-synchronisation (§2.4; the scope-too-narrow kind is for two strong accesses).
// * [R] may read the initial 0 (§3.6): out[0] ∈ {0, 42}; the assertion fails.
#include "host.cuh"

__global__ void publish_volatile(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    *data = 42;               // [W]
    __threadfence_block();    // [F1] bug: orders the stores for this block's threads only
    *flag = 1;                // [F]
  } else {  // consumer
    while (*flag == 0) {  // [P]
    }
    __threadfence_block();  // [F2]
    *out = *data;           // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(1);
  publish_volatile<<<2, 32>>>(data, flag, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
