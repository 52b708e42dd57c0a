// The legacy warp-synchronous tail of a shared-memory reduction: once 32 partial sums are left, warp 0 finishes
// with a `volatile` pointer and no barrier, relying on the lanes running in lock step — which independent thread
// scheduling (sm_70+) no longer guarantees (the fix is reduce-warp-volatile-syncwarp.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2,3,4,5,6,7,8 --arg out=int32[1] --assert 'out[0]==36'
// ptxmm-expect: race-free
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, bar.sync 0, the steps of [V]
// ld.volatile.shared.u32 / st.volatile.shared.u32, [O] ld.volatile.shared.u32 + st.global.u32):
// * [S] (line 36) stores s[t]; `bar.sync 0` (§4.4, executed by all 64 threads) orders it before every step of
//   warp 0 (§2.8 rule 2, §2.10 C1): no race with [S].
// * In the steps ([V], lines 25-30, called from line 39) lane t reads s[t + d] that lane t + d wrote in the
//   previous step, and lane t - d reads s[t] while lane t writes it. These conflicting accesses are all
//   `.volatile`, i.e. relaxed.sys (§1.5, §1.6): strong, and .sys contains both lanes, so every pair is morally
//   strong (§2.3) — not a data race (§2.4). Hence race-free.
// * But nothing orders lane t+d's store of the previous step before lane t's load: volatile gives no
//   synchronisation (no release/acquire pattern, no barrier, §2.8). A load may return an older value in coherence
//   order (§3.6 forbids only reading a store that is causality-ordered after an overwrite); e.g. lane 0 may read
//   s[16] before lane 16 added s[48] into it. So out[0] (line 42) can differ from 1+..+8 = 36: the assertion fails.
#include "host.cuh"

__device__ void warp_reduce(volatile int* s, int t) {
  s[t] += s[t + 32];  // [V]
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void reduce64(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = in[t];  // [S]
  __syncthreads();
  if (t < 32) {
    warp_reduce(s, t);  // bug: lanes assumed to run in lock step
  }
  if (t == 0) {
    out[0] = s[0];  // [O]
  }
}

int main() {
  int* in = device_buffer<int>(64, {1, 2, 3, 4, 5, 6, 7, 8});
  int* out = device_buffer<int>(1);
  reduce64<<<1, 64>>>(in, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
