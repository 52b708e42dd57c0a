// Flag hand-off between two blocks through a volatile flag and no fences: "WRONG: volatile doesn't guarantee
// hardware visibility" (seed 000, Volatile vs Atomic vs Fence), with the consumer the seed implies.
//
// ptxmm-launch: --grid 2 --block 32 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[1] --assert 'out[0]==42' --observe 'out[0]'
// ptxmm-expect: race 24 29 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[0] 0,42
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the flag accesses are st.volatile.global /
// ld.volatile.global, data is plain st.global / ld.global):
// * .volatile has the model semantics of .relaxed.sys (§1.5): [F] (line 25) and [P] (line 27) are strong and
//   mutually in scope, hence morally strong (§2.3): the flag itself never races, and [P] eventually reads 1.
// * [W] (line 24, weak store of data) and [R] (line 29, weak load) conflict. A relaxed store heads no release
//   pattern and a relaxed load ends no acquire pattern without a fence (§2.5), so [F] -> [P] is observation
//   without synchronization (§2.8): [W] and [R] are not in causality order, and [W] is weak: a race,
//   no-synchronisation.
// * [R] may read the initial 0 or 42 (nothing in causality order forbids either, §3.6): out[0] is 0 or 42.
#include "host.cuh"

__global__ void publish_volatile(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // producer
    *data = 42;  // [W]
    *flag = 1;   // [F] Other SM may see flag=1 but stale data!
  } else {  // consumer
    while (*flag == 0) {  // [P]
    }
    *out = *data;  // [R]
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
