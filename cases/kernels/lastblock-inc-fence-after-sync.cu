// lastblock-inc-broadcast-fenced.cu with the last block's fence after the __syncthreads() that broadcasts
// is_last: thread 0's acquire covers only thread 0's own reads; threads 1..3 read the other blocks' partials
// with nothing ordering them after the writers' stores.
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=1,2,3 --arg partial=int32[4] --arg count=uint32[1] --arg out=int32[4] --assert 'out[1]==64' --observe 'out[1]'
// ptxmm-expect: race 29 36 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[1] 0,64
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as the fenced version, with membar.gl [FR] after
// `bar.sync 0` [B] in thread 0 only):
// * The writers' release patterns ([W] po [FW] po [T]) synchronize with thread 0 of the last block only: its
//   [T] po [FR] is the acquire pattern, and FR is po-before thread 0's own [R] alone. Thread t = 1..3 of the
//   last block reaches [R] through [B], which is before [FR]: no sw or barrier path leads from another block's
//   [W] to it (§2.8, §2.10). Weak, conflicting: a race [W]-[R] (§2.4).
// * out[1]: when the last block is not block 1, its thread 1 may read partial[1]'s initial 0 (§3.6); when it
//   is block 1 its own partial is ordered by [B]: out[1] ∈ {0, 64}.
#include "host.cuh"

__global__ void two_phase(const int* in, int* partial, unsigned* count, int* out) {
  __shared__ int warp_sum[2];
  __shared__ bool is_last;
  const int t = threadIdx.x;
  const int v = __reduce_add_sync(0xffffffffu, in[blockIdx.x * blockDim.x + t] + 1);
  if (t % 32 == 0) warp_sum[t / 32] = v;
  __syncthreads();
  if (t == 0) {
    partial[blockIdx.x] = warp_sum[0] + warp_sum[1];  // [W]
    __threadfence();                                   // [FW]
    const unsigned ticket = atomicInc(count, gridDim.x - 1);  // [T]
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();  // [B]
  if (t == 0) __threadfence();  // [FR] bug: after the barrier, so only thread 0 is ordered
  if (is_last && t < gridDim.x) out[t] = partial[t];  // [R]
}

int main() {
  int* in = device_buffer<int>(256, {1, 2, 3});
  int* partial = device_buffer<int>(4);
  unsigned* count = device_buffer<unsigned>(1);
  int* out = device_buffer<int>(4);
  two_phase<<<4, 64>>>(in, partial, count, out);
  finish();
  print("out", out, 4, {0, 1, 2, 3});
  print("count", count, 1, {0});
  return 0;
}
