// Per-thread work in a local array (indexed by data, so it lives in .local memory: ld/st.local), a device-side
// assert() (__assertfail) on it, a printf (vprintf through a .local argument buffer) by thread 0 of each CTA, and
// a struct result copied out. Nothing is shared between threads: race-free, and the assert never fires.
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[256]=3,3,5,1,2,6,6,0,7,7,7,7 --arg out=int32[128] --assert 'out[0]==3 && out[1]==2 && out[2]==6 && out[3]==2 && out[4]==7 && out[5]==4 && out[6]==0 && out[7]==4 && out[127]==4'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.local.u32 / ld.local.u32 on the thread's own
// `hist` frame, a branch to `__assertfail` when the check fails, `vprintf` with its arguments stored to a .local
// buffer, [O] st.global.v2.u32 of the struct):
// * .local memory is private to each thread (§1 state spaces): its accesses never conflict with another
//   thread's. `in` is only read ([L], line 44). Thread g writes out[2g], out[2g+1] ([O], line 48) only. No
//   conflicting pair of different threads: race-free (§2.4). vprintf and __assertfail are calls with no memory
//   effect on the kernel's buffers.
// * Values (single-thread semantics, §3.6 per location): thread g counts in[4g .. 4g+3] modulo 8 and stores the most
//   frequent value (the smallest on ties) and its count. Thread 0: 3,3,5,1 -> (3, 2); thread 1: 2,6,6,0 -> (6, 2);
//   thread 2: 7,7,7,7 -> (7, 4); every other thread: four 0s -> (0, 4), e.g. out[126..127] = 0, 4. Each count is
//   at most 4, so `assert(best.count <= 4)` holds and __assertfail is never reached.
#include <cassert>
#include <cstdio>

#include "host.cuh"

struct Mode {
  int value;
  int count;
};

__device__ Mode mode_of4(const int* v) {
  int hist[8];
  for (int i = 0; i < 8; ++i) hist[i] = 0;
  for (int i = 0; i < 4; ++i) hist[v[i] & 7] += 1;  // data-dependent index: the array lives in .local
  Mode best{0, hist[0]};
  for (int i = 1; i < 8; ++i)
    if (hist[i] > best.count) best = Mode{i, hist[i]};
  return best;
}

__global__ void modes(const int* in, Mode* out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  int v[4];
  for (int i = 0; i < 4; ++i) v[i] = in[4 * g + i];  // [L]
  const Mode best = mode_of4(v);
  assert(best.count <= 4);
  if (threadIdx.x == 0) printf("block %d: thread 0 mode %d x%d\n", blockIdx.x, best.value, best.count);
  out[g] = best;  // [O]
}

int main() {
  int* in = device_buffer<int>(256, {3, 3, 5, 1, 2, 6, 6, 0, 7, 7, 7, 7});
  int* out = device_buffer<int>(128);
  modes<<<2, 32>>>(in, reinterpret_cast<Mode*>(out));
  finish();
  print("out", out, 128, {0, 1, 2, 3, 4, 5, 6, 7, 127});
  return 0;
}
