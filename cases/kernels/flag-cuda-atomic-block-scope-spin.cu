// Producer/consumer across blocks through a cuda::atomic_ref<int, thread_scope_block> flag: the release store
// and the acquire poll are correct inside one block, but here block 0 stores and block 1 polls. The fix is the
// device scope (flag-cuda-atomic-release-acquire.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg result=int32[1]
// ptxmm-expect: race 35 37 scope-too-narrow
// ptxmm-expect: race 34 39 no-synchronisation
// ptxmm-expect: hang 37
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: libcu++ emits st.release.cta.b32 for the store and
// ld.acquire.cta.b32 for the load):
// * [S] (line 35) and [P] (line 37) are strong accesses of the flag, but .cta scope in different CTAs: neither's
//   scope contains the other's thread, so they are not morally strong (§2.3) and nothing orders them: a race of
//   kind scope-too-narrow.
// * Hang: PTX promises eventual visibility only between morally strong accesses (§1.4; ptx-core.cat
//   `eventually-visible`), so [P] may read the initial 0 for ever even after block 0 is done (nothing in block
//   1's thread before [P] synchronises: it may read 0 first, and then keep reading it). Under fair progress the
//   loop at line 37 may never end.
// * When [P] does read 1, [S] (rp1) and [P] (ap1) are not morally strong, so no synchronizes-with (§2.8 rule 4):
//   [W] (line 34, weak store of `data`) and [R] (line 39, weak load) are not in causality order, a race of kind
//   no-synchronisation.
#include "host.cuh"

#include <cuda/atomic>

__device__ int data;
__device__ int flag;

__global__ void handoff(int* result) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);  // bug: the two blocks share the flag
  if (blockIdx.x == 0) {  // producer
    data = 42;                                    // [W]
    f.store(1, cuda::std::memory_order_release);  // [S]
  } else {  // consumer
    while (f.load(cuda::std::memory_order_acquire) == 0) {  // [P]
    }
    *result = data;  // [R]
  }
}

int main() {
  int* result = device_buffer<int>(1);
  handoff<<<2, 32>>>(result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
