// A templated kernel instantiated twice (block_sum<32> and block_sum<64>: two .entry functions in one module);
// `--kernel` picks the instance to check by its CUDA name. The sum loop runs over the template parameter, and the
// 64-thread instance is launched with 64 threads.
//
// ptxmm-launch: --kernel 'block_sum<64>' --grid 1 --block 64 --arg in=int32[64]=4,5,6 --arg out=int32[1] --assert 'out[0]==15'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: two entries _Z9block_sumILi32EEvPKiPi and
// _Z9block_sumILi64EEvPKiPi; [S] st.shared.u32, bar.sync 0, [R] ld.shared.u32 (64 of them, unrolled), [O]
// st.global.u32):
// * In block_sum<64> every thread stores s[t] ([S], line 23); thread 0 reads all 64 slots ([R], line 27) after
//   `bar.sync 0` executed by all 64 threads (line 24; §4.4, §2.8 rule 2): every store is in causality order before
//   every read (§2.10 C1). [O] (line 28) is thread 0's only. Race-free.
// * Thread 0 reads each s[i] = in[i] (§3.6): 4 + 5 + 6 = 15.
#include "host.cuh"

template <int kThreads>
__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[kThreads];
  const int t = threadIdx.x;
  s[t] = in[t];  // [S]
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < kThreads; ++i) sum += s[i];  // [R]
    out[0] = sum;  // [O]
  }
}

int main() {
  int* in = device_buffer<int>(64, {4, 5, 6});
  int* out = device_buffer<int>(1);
  int* out32 = device_buffer<int>(1);
  block_sum<32><<<1, 32>>>(in, out32);  // the other instance: both are in the module
  block_sum<64><<<1, 64>>>(in, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
