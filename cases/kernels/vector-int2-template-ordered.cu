// vector-int2-template-overlap.cu with a __syncthreads() between thread 0's int2 store and thread 1's scalar
// store: the scalar store is the co-last write of s[1].
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[2] --observe 'out[0]' --assert 'out[0]==7 && out[1]==1'
// ptxmm-expect: race-free
// ptxmm-expect: observe out[0] 7
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.v2.u32 [V], `bar.sync 0` [B1],
// st.shared.u32 [X], `bar.sync 0`, ld.shared.u32 [L]):
// * [V] sw_bar [X] through [B1], and both before [L] through the second barrier (§2.8): no race.
// * [V]'s element 1 is co-before [X] (causality, §3.5/§3.6), so [L] reads 7; s[0] = 1.
#include "host.cuh"

template <typename T>
__global__ void patch(T* out) {
  __shared__ __align__(8) T s[4];
  const int t = threadIdx.x;
  if (t == 0) *reinterpret_cast<int2*>(&s[0]) = make_int2(1, 2);  // [V]
  __syncthreads();  // [B1] orders the vector store before the scalar one
  if (t == 1) s[1] = 7;  // [X]
  __syncthreads();
  if (t == 0) {
    out[0] = s[1];  // [L]
    out[1] = s[0];
  }
}

int main() {
  int* out = device_buffer<int>(2);
  patch<int><<<1, 64>>>(out);
  finish();
  print("out", out, 2, {0, 1});
  return 0;
}
