// Hillis-Steele inclusive block scan of 64-bit values, double-buffered (each step reads one shared buffer and
// writes the other, one __syncthreads() per step), a 3-D block of 32x2x2 threads flattened to 128 (the fix; the
// in-place bug is scan-hillis-steele-inplace.cu).
//
// ptxmm-launch: --grid 1 --block 32,2,2 --arg in=int64[128]=3,1,4,1,5,-9 --arg out=int64[128] --assert 'out[0]==3 && out[1]==4 && out[2]==8 && out[4]==14 && out[5]==5 && out[127]==5'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] st.shared.u64, bar.sync 0, then per step (seven,
// d = 1..64) ld.shared.u64 ([R], [RD]), [W] st.shared.u64, bar.sync 0; [O] st.global.u64):
// * t = x + 32y + 64z covers 0..127 once. Step k (offset d = 2^k) reads buffer k%2 at t ([R], line 32) and t - d
//   ([RD], line 33, when t >= d) and writes buffer (k+1)%2 at t ([W], line 34). The load [L] (line 28) writes buffer 0.
// * A write of buffer b at step k conflicts with reads of buffer b at step k - 1 (by other threads) and at step
//   k + 1; and with the write of step k - 2 (same thread, po). Step k - 1's reads po the barrier ending step k - 1
//   (line 35) po step k's write: arrive sw wait (§2.8 rule 2), causality (§2.10 C1); step k's write po the barrier
//   ending step k po step k + 1's reads: ordered too. [L] against step 0's reads: the barrier after [L] (line 29).
//   Every barrier is executed by all 128 threads (outside every `if`, §4.4). No other pair conflicts (one CTA):
//   race-free.
// * Each step reads the previous step's values (§3.6), so out is the inclusive prefix sum of 3,1,4,1,5,-9,0,...:
//   3,4,8,9,14,5,5,... and out[127] = 5.
#include "host.cuh"

template <class T, int N>
__global__ void scan_inclusive(const T* in, T* out) {
  __shared__ T buf[2][N];
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  buf[0][t] = in[t];  // [L]
  __syncthreads();    // [BL]
  int src = 0;
  for (int d = 1; d < N; d *= 2) {
    T v = buf[src][t];            // [R]
    if (t >= d) v += buf[src][t - d];  // [RD]
    buf[1 - src][t] = v;          // [W]
    __syncthreads();              // [B]
    src = 1 - src;
  }
  out[t] = buf[src][t];  // [O]
}

int main() {
  long long* in = device_buffer<long long>(128, {3, 1, 4, 1, 5, -9});
  long long* out = device_buffer<long long>(128);
  scan_inclusive<long long, 128><<<1, dim3(32, 2, 2)>>>(in, out);
  finish();
  print("out", out, 128, {0, 1, 2, 4, 5, 127});
  return 0;
}
