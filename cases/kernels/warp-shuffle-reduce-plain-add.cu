// Warp-shuffle reduction whose per-warp result is added to the total with a plain `+=` instead of atomicAdd:
// lane 0 of every warp does a non-atomic read-modify-write of out[0] (the fix is warp-shuffle-reduce-atomic.cu).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[128]=1,2,3,4,5,6,7,8,9,10 --arg out=int32[1] --assert 'out[0]==55' --observe 'out[0]'
// ptxmm-expect: race 27 27 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[0] 0,55
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32, shfl.sync.down.b32 (no memory
// event), [X] ld.global.u32 + add + st.global.u32, both weak):
// * [X] (line 27) is executed by lane 0 of the four warps (two per CTA). Their loads and stores of out[0]
//   conflict, are weak (not morally strong, §2.3) and no barrier or fence orders them (the lanes are in different
//   warps, two of them in different CTAs): data races, no-synchronisation, all between line 27 and itself (§2.4).
// * Warp 0 of CTA 0 has the sum 55 (in[0..9] = 1..10), the three others 0. The final out[0] is a co-maximal store
//   (§2.12): 55 when the 55-writer stores last, or when it stores earlier and every later writer read its store;
//   0 when a warp whose sum is 0 read the initial 0 (before the 55 was visible, §3.6 allows it) and stored last.
//   So out[0] is 0 or 55, and the assertion can fail.
#include "host.cuh"

__global__ void warp_sum(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];  // [L]
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  if ((threadIdx.x & 31) == 0) {
    *out += v;  // [X] bug: not atomic across warps
  }
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  int* out = device_buffer<int>(1);
  warp_sum<<<2, 64>>>(in, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
