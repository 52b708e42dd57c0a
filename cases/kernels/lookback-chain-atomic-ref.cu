// lookback-chain-threadfence.cu with the status flag as cuda::atomic_ref<int, thread_scope_device>: a
// release store publishes block b's inclusive prefix, an acquire load polls it (no fences).
//
// ptxmm-launch: --grid 4 --block 32 --arg in=int32[128]=1,2,3 --arg flag=int32[4] --arg incl=int64[4] --arg out=int64[4] --assert 'out[0]==0 && out[1]==38 && out[3]==102 && incl[3]==134'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: libcu++ emits st.release.gpu.global.b32 for [P]
// and ld.acquire.gpu.global.b32 in the poll loop [Q], §5.3):
// * [P] is a release write (rp1), [Q]'s successful iteration an acquire read (ap1) reading it; both .gpu: ms,
//   so [P] sw [Q] (§2.8 rule 4) and [W] po [P] sw [Q] po [R]: causality order, no race (§2.10), and [R] reads
//   the prefix block b-1 stored (§3.6).
// * The polls end under fair progress (the writer of each flag waits only for lower blocks). Values as in
//   lookback-chain-threadfence.cu: out = 0, 38, 70, 102; incl[3] = 134.
#include <cuda/atomic>

#include "host.cuh"

__global__ void chained_scan(const int* in, int* flag, long long* incl, long long* out) {
  const int b = blockIdx.x;
  const int s = __reduce_add_sync(0xffffffffu, in[b * 32 + threadIdx.x] + 1);
  if (threadIdx.x == 0) {
    long long prev = 0;
    if (b > 0) {
      cuda::atomic_ref<int, cuda::thread_scope_device> prev_flag(flag[b - 1]);
      while (prev_flag.load(cuda::memory_order_acquire) == 0) {  // [Q]
      }
      prev = incl[b - 1];  // [R]
    }
    incl[b] = prev + s;  // [W]
    cuda::atomic_ref<int, cuda::thread_scope_device>(flag[b]).store(1, cuda::memory_order_release);  // [P]
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
