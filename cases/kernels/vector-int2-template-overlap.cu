// A template kernel (instantiated for int) where thread 0 patches s[0..1] with one 8-byte vector store while
// thread 1 writes s[1] with a scalar store; after __syncthreads() thread 0 reads s[1] (the fixed sibling, with
// a barrier between the two writers, is vector-int2-template-ordered.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[2] --observe 'out[0]' --assert 'out[1]==1'
// ptxmm-expect: race 23 24 no-synchronisation
// ptxmm-expect: observe out[0] 2,7
// ptxmm-expect: assert holds
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.v2.u32 [V], st.shared.u32 [X], `bar.sync 0`,
// ld.shared.u32 [L]):
// * A vector access is one access per element (§1.2): [V]'s second element and [X] are 4-byte weak stores to
//   the same address, unordered: a race, no-synchronisation (same size, not a partial overlap).
// * After the barrier both stores are causally before [L]; the co-last one is read (§3.6): out[0] ∈ {2, 7}.
//   s[0] is written only by [V] (value 1), so out[1] = 1 holds.
#include "host.cuh"

template <typename T>
__global__ void patch(T* out) {
  __shared__ __align__(8) T s[4];
  const int t = threadIdx.x;
  if (t == 0) *reinterpret_cast<int2*>(&s[0]) = make_int2(1, 2);  // [V]
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
