// Work-efficient (Blelloch) exclusive scan of 16 elements by 8 threads in shared memory: up-sweep, clear the
// root, down-sweep, then a coalesced write-back (out[t] and out[t + 8]) after a final __syncthreads() (the bug
// without that barrier is scan-blelloch-no-final-sync.cu).
//
// ptxmm-launch: --grid 1 --block 8 --arg in=int32[16]=3,1,4,1,5,9,2,6,5,3,5 --arg out=int32[16] --assert 'out[0]==0 && out[1]==3 && out[5]==14 && out[11]==44 && out[15]==44 && out[8]==31'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the loops have concrete trip counts (4 up, 4 down)
// and are unrolled; each step is ld.shared/st.shared between `bar.sync 0`):
// * Up-sweep step with offset o: thread t < 8/o updates temp[o(2t+2)-1] from temp[o(2t+1)-1]; the barrier at
//   the top of each step orders the previous step's writes before this step's reads and writes (sw_bar, §2.8);
//   within a step the active threads touch disjoint elements.
// * Thread 0 clears temp[15] [Z] after its own last up-sweep step (the only writer of temp[15] there). The
//   down-sweep steps again start with a barrier; within a step the pairs (ai, bi) are disjoint.
// * The final [B] orders the last down-sweep step (thread j writes temp[2j], temp[2j+1]) before the
//   write-back's reads of temp[t] and temp[t + 8], written by threads t/2 and 4 + t/2: ordered, race-free.
// * Values: the exclusive prefix sums of 3,1,4,1,5,9,2,6,5,3,5,0,...: out[0]=0, out[1]=3, out[5]=14, out[11] =
//   44 (the sum of the 11 given elements), and 44 from there on (out[15]); out[8] = 31 (the first 8).
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
  __syncthreads();  // [B]
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
