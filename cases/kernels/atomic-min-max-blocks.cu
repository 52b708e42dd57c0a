// Block-spanning extremes with atomicMin / atomicMax: 4 CTAs of 64 threads each fold their input element into a
// signed minimum, a signed maximum and an unsigned maximum (the same bits read as unsigned), starting from the
// identities INT_MAX, INT_MIN and 0. No barrier, no fence: the result is right in every order of the RMWs.
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=5,-7,300,12,-3 --arg lo=int32[1]=2147483647 --arg hi=int32[1]=-2147483648 --arg umax=uint32[1] --assert 'lo[0]==-7 && hi[0]==300 && umax[0]==4294967293' --observe 'lo[0]' --observe 'umax[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe lo[0] -7
// ptxmm-expect: observe umax[0] 4294967293
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32 of in, [MIN] atom.global.min.s32,
// [MAX] atom.global.max.s32, [UMAX] atom.global.max.u32, all .relaxed.gpu by default, §5.1; results unused):
// * lo, hi and umax are accessed only by the RMWs [MIN] (line 25), [MAX] (line 26) and [UMAX] (line 27) of all 256
//   threads: strong, .gpu scope containing every thread, so every pair is morally strong (§2.3): race-free (§2.4).
//   `in` is only read ([L], line 24).
// * Atomicity (§3.3): the RMWs of one location are totally ordered by coherence, each reading its predecessor;
//   min and max commute and are associative, so every order folds all 256 inputs into the identity: inputs 5, -7,
//   300, 12, -3 and 251 zeros give min -7 and max 300; as unsigned, -3 = 4294967293 is the largest (-7 is
//   4294967289). These are the only final values.
#include "host.cuh"

__global__ void extremes(const int* in, int* lo, int* hi, unsigned* umax) {
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];  // [L]
  atomicMin(lo, v);                                          // [MIN]
  atomicMax(hi, v);                                          // [MAX]
  atomicMax(umax, static_cast<unsigned>(v));                 // [UMAX]
}

int main() {
  int* in = device_buffer<int>(256, {5, -7, 300, 12, -3});
  int* lo = device_buffer<int>(1, {2147483647});
  int* hi = device_buffer<int>(1, {-2147483647 - 1});
  unsigned* umax = device_buffer<unsigned>(1);
  extremes<<<4, 64>>>(in, lo, hi, umax);
  finish();
  print("lo", lo, 1, {0});
  print("hi", hi, 1, {0});
  print("umax", umax, 1, {0});
  return 0;
}
