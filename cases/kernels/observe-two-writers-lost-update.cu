// Two racing writers and a lost update, observed: thread 3 (warp 0) and thread 40 (warp 1) each store their
// index into out[0] and increment hits[0] with a plain +=. No synchronisation: the final values are sets.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[1] --arg hits=int32[1] --observe 'out[0]' --observe 'hits[0]' --assert 'hits[0]>=1 && hits[0]<=2 && (out[0]==3 || out[0]==40)'
// ptxmm-expect: race 23 23 no-synchronisation
// ptxmm-expect: race 24 24 no-synchronisation
// ptxmm-expect: observe out[0] 3,40
// ptxmm-expect: observe hits[0] 1,2
// ptxmm-expect: assert holds
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.global.u32 [O]; ld.global.u32 + add + st [H]):
// * [O] of threads 3 and 40: conflicting weak stores, unordered: a race. The final value is the co-last store
//   (§2.12): 3 or 40, never the initial 0 (both stores happen).
// * [H]: each thread loads hits[0] (0 or the other's 1) and stores load + 1: a race; final 1 (both read 0) or 2
//   (one read the other's store; reading a co-later value than one's own store is forbidden, §3.5): {1, 2}.
// * The assertion states exactly those sets, so it holds; the races make the exit 1.
#include "host.cuh"

__global__ void two_writers(int* out, int* hits) {
  const int t = threadIdx.x;
  if (t == 3 || t == 40) {
    *out = t;    // [O]
    *hits += 1;  // [H]
  }
}

int main() {
  int* out = device_buffer<int>(1);
  int* hits = device_buffer<int>(1);
  two_writers<<<1, 64>>>(out, hits);
  finish();
  print("out", out, 1, {0});
  print("hits", hits, 1, {0});
  return 0;
}
