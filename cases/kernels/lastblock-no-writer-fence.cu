// Last-block reduction without the writer's fence: thread 0 stores its block's partial count and takes the
// ticket at once, so nothing publishes the partial to the block that draws the last ticket (the fix is
// lastblock-fenced.cu).
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=-1,-2,5 --arg partial=int32[4] --arg count=uint32[1] --arg out=int32[1] --assert 'out[0]==254'
// ptxmm-expect: race 33 39 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence() = membar.gl, atomicAdd =
// atom.global.add.u32, .relaxed.gpu by default, §1.5, §5.2):
// * [W] (line 33) and [R] (line 39) conflict: weak st / weak ld of partial[b], block b's thread 0 against the
//   last block's thread 0 (b != last).
// * A release pattern needs a release operation or a release fence before a strong write (§2.5 rp1-rp3);
//   block b's thread 0 executes [W] po [T] (atom.relaxed.gpu) with no fence at all, so it heads no pattern
//   and no sw leaves it. The last block's [F2] only gives an acquire pattern, and its fence.sc has no other
//   fence.sc to be Fence-SC-ordered with (blocks that are not last execute none), so no sw reaches [R]
//   either (§2.8). Weak, not ms (§2.3), not in causality order: a race, no-synchronisation.
// * [R] may read the initial 0 of partial[b] (nothing in causality order forbids it, §3.6), so
//   out[0] == 254 is not guaranteed.
#include "host.cuh"

__global__ void count_nonnegative(const int* in, int* partial, unsigned* count, int* out) {
  __shared__ int s[64];
  const int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid] >= 0 ? 1 : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) {
    partial[blockIdx.x] = s[0];                    // [W] publish this block's count
    const unsigned ticket = atomicAdd(count, 1u);  // [T] missing: __threadfence() before the ticket
    if (ticket == gridDim.x - 1) {                 // the last block to finish
      __threadfence();                             // [F2] reader fence
      int total = 0;
      for (int b = 0; b < gridDim.x; ++b) {
        total += partial[b];  // [R]
      }
      *out = total;
    }
  }
}

int main() {
  int* in = device_buffer<int>(256, {-1, -2, 5});
  int* partial = device_buffer<int>(4);
  unsigned* count = device_buffer<unsigned>(1);
  int* out = device_buffer<int>(1);
  count_nonnegative<<<4, 64>>>(in, partial, count, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
