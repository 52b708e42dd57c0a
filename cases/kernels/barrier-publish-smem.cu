// Shared-memory publication with __syncthreads(): every thread writes its own slot, the barrier, then every
// thread reads its neighbour's slot (seed 000, "Barrier: waits + orders memory").
//
// ptxmm-launch: --grid 2 --block 128 --arg out=int32[256] --assert 'out[0]==1 && out[126]==16129 && out[127]==0 && out[255]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * [W] (line 26) is a weak st.shared of data[t]; [R] (line 28) a weak ld.shared of data[(t+1)%128], the slot
//   of another thread of the same CTA: a conflicting pair, which needs causality order (§2.4).
// * __syncthreads() is `bar.sync 0` (§5.2, checked in the PTX), which waits for all 128 threads of the CTA
//   (issue 13). Its arrive half synchronizes with the wait half of every other thread of the CTA in the same
//   generation (§2.8 rule 2), so [W] po bar sw bar po [R] is base causality (§2.9); both are generic accesses
//   to the same address, hence proxy-preserved (§2.10 C1): causality order, no race, and [R] reads [W]
//   (Causality axiom, §3.6). The two CTAs have separate shared windows; out[] slots are written once each.
// * Values: data[t] = t*t, out[128*b + t] = data[(t+1)%128]: out[0] = 1, out[126] = 127^2 = 16129,
//   out[127] = data[0] = 0, out[255] = 0.
#include "host.cuh"

__device__ int compute(int t) { return t * t; }

__global__ void publish(int* out) {
  __shared__ int data[128];
  const int t = threadIdx.x;
  data[t] = compute(t);                                   // [W] each thread writes its own slot
  __syncthreads();                                        // all 128 threads arrive, then continue
  out[blockIdx.x * blockDim.x + t] = data[(t + 1) % 128];  // [R] reads the neighbour's slot
}

int main() {
  int* out = device_buffer<int>(256);
  publish<<<2, 128>>>(out);
  finish();
  print("out", out, 256, {0, 126, 127, 255});
  return 0;
}
