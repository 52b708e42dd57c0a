// 16-byte vector copy (int4, st.global.v4.u32) and a scalar patch of one element of the NEXT thread's vector with
// no barrier in between (the bug; the fix is vector-int4-patch-syncthreads.cu): a data race between the vector's
// element store and the scalar store, of the same size (vector elements are scalar accesses), so the patch may be lost.
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[512]=1,2,3,4,5,6,7,8 --arg out=int32[512] --assert 'out[5]==-1' --observe 'out[5]'
// ptxmm-expect: race 23 25 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[5] -1,6
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [V] ld.global.v4.u32 / st.global.v4.u32, [P] st.global.u32
// by thread 0 of each CTA, no barrier):
// * Vector accesses are four scalar element accesses (§1 vector note, A16): thread g+1's [V] (line 23) stores
//   out[4g+5] with a 4-byte element store, and thread g's [P] (line 25, g = 64c) stores the same 4 bytes. Nothing
//   orders them (§2.8): two weak stores of one location by different threads, a data race (§2.4) of uniform size,
//   kind no-synchronisation (not partial-overlap: the element and the patch overlap completely).
// * Values: the two writes are unordered in causality, so either may be coherence-last (§3.5): out[5] ends -1 or
//   in[5] = 6. The assertion out[5] == -1 fails in some execution.
#include "host.cuh"

__global__ void copy_patch(const int4* in, int4* out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[g];  // [V] one 16-byte vector per thread
  // BUG: no __syncthreads(): thread g + 1 may store its vector after the patch
  if (threadIdx.x == 0) reinterpret_cast<int*>(out)[4 * g + 5] = -1;  // [P] element 1 of out[g + 1]
}

int main() {
  int* in = device_buffer<int>(512, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(512);
  copy_patch<<<2, 64>>>(reinterpret_cast<const int4*>(in), reinterpret_cast<int4*>(out));
  finish();
  print("out", out, 512, {5});
  return 0;
}
