// lookback-chain-threadfence.cu without the writer's fence: block b stores its inclusive prefix and sets its
// flag with nothing between them, so block b+1 can see the flag and still read a stale prefix.
//
// ptxmm-launch: --grid 4 --block 32 --arg in=int32[128]=1,2,3 --arg flag=int32[4] --arg incl=int64[4] --arg out=int64[4] --assert 'out[1]==38' --observe 'out[1]'
// ptxmm-expect: race 31 29 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[1] 0,38
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as lookback-chain-threadfence.cu, no membar.gl
// between the st.global.u64 of incl[b] and the st.volatile of flag[b]):
// * Writer b: [W] po [P] (st.volatile, relaxed) with no release fence or release store: no release pattern
//   (§2.5 rp1-rp3). Block b's earlier [FR] precedes [W], so it publishes nothing of [W]; block 0 has no fence.
// * Reader b+1's [FR] makes an acquire pattern, but nothing synchronizes with it: [W] (block b) and [R]
//   (block b+1) are weak, conflicting, unordered: a race (§2.4).
// * [R] in block 1 may read incl[0]'s initial 0 instead of 38 (no causality order forbids it, §3.6): out[1] is
//   0 or 38; the assertion can fail.
#include "host.cuh"

__global__ void chained_scan(const int* in, int* flag, long long* incl, long long* out) {
  const int b = blockIdx.x;
  const int s = __reduce_add_sync(0xffffffffu, in[b * 32 + threadIdx.x] + 1);
  if (threadIdx.x == 0) {
    long long prev = 0;
    if (b > 0) {
      while (*(volatile int*)&flag[b - 1] == 0) {  // [Q]
      }
      __threadfence();     // [FR]
      prev = incl[b - 1];  // [R]
    }
    incl[b] = prev + s;  // [W]
    // missing: __threadfence() before publishing the flag
    *(volatile int*)&flag[b] = 1;  // [P]
    out[b] = prev;
  }
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3});
  int* flag = device_buffer<int>(4);
  long long* incl = device_buffer<long long>(4);
  long long* out = device_buffer<long long>(4);
  chained_scan<<<4, 32>>>(in, flag, incl, out);
  finish();
  print("out", out, 4, {0, 1, 2, 3});
  print("incl", incl, 4, {3});
  return 0;
}
