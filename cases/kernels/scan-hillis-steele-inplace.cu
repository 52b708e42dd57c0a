// Hillis-Steele inclusive block scan of 64-bit values done in place in ONE shared buffer, with a barrier only
// after each step's write (the bug: a thread may overwrite s[t] before thread t + d has read it; the fix is
// scan-hillis-steele-double-buffer.cu, or a second __syncthreads() between the reads and the write).
//
// ptxmm-launch: --grid 1 --block 32,2,2 --arg in=int64[128]=3,1,4,1,5,-9 --arg out=int64[128]
// ptxmm-expect: race 29 31 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] st.shared.u64, bar.sync 0, then per step
// ld.shared.u64 ([R], [RD]), [W] st.shared.u64, bar.sync 0):
// * t = x + 32y + 64z. In step d thread t reads s[t] ([R], line 28) and s[t - d] ([RD], line 29, t >= d), then writes
//   s[t] ([W], line 31). Thread t - d's [W] of s[t - d] and thread t's [RD] of s[t - d] in the same step both lie
//   between the same two barrier instances (the one ending the previous step, line 32, and the one ending this
//   step): nothing orders them (§2.8), weak store and weak load of one address by different threads: a data race
//   (§2.4), kind no-synchronisation, on lines 29 and 31.
// * [R] reads the thread's own s[t] (po after its own writes) and every other pair is ordered by a barrier all 128
//   threads execute, so 29-31 is the only racing line pair. No assertion: the racing read may return the updated
//   sum (a wrong prefix), the race alone gives exit 1.
#include "host.cuh"

template <class T, int N>
__global__ void scan_inclusive(const T* in, T* out) {
  __shared__ T s[N];
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  s[t] = in[t];  // [L]
  __syncthreads();
  for (int d = 1; d < N; d *= 2) {
    T v = s[t];                 // [R]
    if (t >= d) v += s[t - d];  // [RD]
    // BUG: no __syncthreads() here: thread t - d may already have overwritten s[t - d]
    s[t] = v;                   // [W]
    __syncthreads();            // [B]
  }
  out[t] = s[t];
}

int main() {
  long long* in = device_buffer<long long>(128, {3, 1, 4, 1, 5, -9});
  long long* out = device_buffer<long long>(128);
  scan_inclusive<long long, 128><<<1, dim3(32, 2, 2)>>>(in, out);
  finish();
  print("out", out, 128, {0, 1, 2, 4, 5, 127});
  return 0;
}
