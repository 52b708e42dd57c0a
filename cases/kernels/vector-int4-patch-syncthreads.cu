// 16-byte vector copy (int4 loads and stores, ld/st.global.v4.u32) followed by a scalar patch of one element of
// the NEXT thread's vector, ordered by __syncthreads() (the fix; the bug is vector-int4-patch-race.cu). The
// model treats a vector access as four element accesses, so the patch is a same-size conflict, not a mixed-size one.
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[512]=1,2,3,4,5,6,7,8 --arg out=int32[512] --assert 'out[0]==1 && out[4]==5 && out[5]==-1 && out[6]==7 && out[7]==8 && out[261]==-1 && out[260]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [V] ld.global.v4.u32 / st.global.v4.u32, bar.sync 0,
// [P] st.global.u32 by thread 0 of each CTA):
// * Vector accesses are four scalar element accesses (§1 vector note, A16). Thread g (= 64 * CTA + t) stores
//   out[4g .. 4g+3] ([V], line 24); thread 0 of CTA c (g = 64c) then stores out[4g + 5], element 1 of thread g+1's
//   vector ([P], line 26): same 4-byte element, same size. The `bar.sync 0` (line 25), executed by all 64 threads
//   of the CTA (§4.4), orders thread g+1's [V] before [P] (arrive sw wait, §2.8 rule 2; causality §2.10 C1):
//   race-free. `in` is only read.
// * Values: [P] is coherence-after the element store it follows in causality (§3.5), so out[5] = -1 and
//   out[261] = -1 (CTA 1); the other elements are copies: out[0] = 1, out[4] = 5, out[6] = 7, out[7] = 8,
//   out[260] = in[260] = 0.
#include "host.cuh"

__global__ void copy_patch(const int4* in, int4* out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g];   // [V] one 16-byte vector per thread
  __syncthreads();  // [S]
  if (threadIdx.x == 0) reinterpret_cast<int*>(out)[4 * g + 5] = -1;  // [P] element 1 of out[g + 1]
}

int main() {
  int* in = device_buffer<int>(512, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(512);
  copy_patch<<<2, 64>>>(reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out));
  finish();
  print("out", out, 512, {0, 4, 5, 6, 7, 260, 261});
  return 0;
}
