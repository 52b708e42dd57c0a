// scan-blelloch-shared.cu without the final __syncthreads(): with the coalesced write-back, thread t reads
// temp[t] and temp[t + 8], which the last down-sweep step gave to threads t/2 and 4 + t/2.
//
// ptxmm-launch: --grid 1 --block 8 --arg in=int32[16]=3,1,4,1,5,9,2,6,5,3,5 --arg out=int32[16] --assert 'out[1]==3' --observe 'out[1]'
// ptxmm-expect: race 52 57 no-synchronisation
// ptxmm-expect: race 53 57 no-synchronisation
// ptxmm-expect: race 52 58 no-synchronisation
// ptxmm-expect: race 53 58 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[1] 0,3
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in scan-blelloch-shared.cu, minus the last
// `bar.sync 0`):
// * Last down-sweep step (offset 1, all 8 threads): thread j reads temp[2j] and temp[2j+1], writes temp[2j] at
//   [DA] and temp[2j+1] at [DB]; it is ordered after the earlier steps by the barrier at its top, and nothing
//   follows it but the write-back.
// * [F1] of thread t reads temp[t] (t even: written at [DA] by thread t/2, t odd: at [DB] by thread (t-1)/2;
//   a different thread for t >= 1), [F2] reads temp[t + 8] (threads 4 + t/2, both lines): weak, unordered,
//   conflicting: four racing line pairs (§2.4). Lanes of one warp get no implicit ordering in the model.
// * out[1] = temp[1] read by thread 1 at [F1]: the barrier at the top of the last step orders every earlier
//   write of temp[1] before it, the latest being thread 0's [DA] of the offset-2 step (value 0: the prefix
//   before pair 0); the only unordered write is thread 0's last [DB] (0 + temp[0] = 3). Thread 1 reads one of
//   the two (§3.6): out[1] ∈ {0, 3}, so out[1]==3 can fail.
#include "host.cuh"

constexpr int N = 16;

__global__ void blelloch_scan(const int* in, int* out) {
  __shared__ int temp[N];
  const int t = threadIdx.x;
  temp[2 * t] = in[2 * t];
  temp[2 * t + 1] = in[2 * t + 1];
  int offset = 1;
  for (int d = N >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (t == 0) temp[N - 1] = 0;  // [Z]
  for (int d = 1; d < N; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      const int v = temp[ai];
      temp[ai] = temp[bi];  // [DA]
      temp[bi] += v;        // [DB]
    }
  }
  // missing: __syncthreads() before the write-back
  out[t] = temp[t];                  // [F1]
  out[t + N / 2] = temp[t + N / 2];  // [F2]
}

int main() {
  int* in = device_buffer<int>(N, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5});
  int* out = device_buffer<int>(N);
  blelloch_scan<<<1, N / 2>>>(in, out);
  finish();
  print("out", out, N, {0, 1, 5, 8, 11, 15});
  return 0;
}
