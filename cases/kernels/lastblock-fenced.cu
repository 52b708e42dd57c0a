// Last-block reduction ("threadFenceReduction"): each block counts its non-negative inputs, thread 0 publishes
// the block's partial count, takes a ticket with atomicAdd, and the block that draws the last ticket adds the
// partials. Both fences are there: the writer's before the ticket, the reader's after it.
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=-1,-2,5 --arg partial=int32[4] --arg count=uint32[1] --arg out=int32[1] --assert 'out[0]==254'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence() = membar.gl, atomicAdd =
// atom.global.add.u32 with no sem/scope, i.e. .relaxed.gpu, §1.5 and §5.2):
// * The only cross-block conflict: [W] (line 36, weak st of partial[b]) and [R] (line 43, weak ld of
//   partial[b] in the last block's thread 0). Everything else is per CTA (shared memory with bar.sync between
//   steps, as in reduce-block-sum.cu), the ticket word is touched only by atom.gpu (morally strong, §2.3,
//   never a race), and out[0] is written once.
// * Writer b: [W] po [F1] (fence.sc.gpu) po [T] (atom.relaxed.gpu, a strong write) is release pattern rp3 (§2.5;
//   fence.sc heads release patterns, reading A7). Last block: [T] (strong read) po [F2] (fence.sc.gpu) is
//   acquire pattern ap3. The last ticket reads n-1, so every other block's increment precedes it in the
//   chain of atomics: writes and reads of ms atom.gpu RMWs (RMW atomicity, §3.3) — observation order
//   W_b obs R_last (§2.6). Heads and tails are fence.sc.gpu of one GPU, ms: F1_b sw F2_last (§2.8 rule 4).
// * So [W] po F1 sw F2 po [R]: base causality, generic, same address, causality order (§2.10 C1): no race,
//   and [R] cannot read the initial 0 of partial[b] (Causality, §3.6). Blocks with another ticket never read.
// * Values: block 0 counts 62 non-negative inputs (-1, -2 are negative), blocks 1-3 count 64: out[0] = 254.
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
    __threadfence();                               // [F1] writer fence: the count before the ticket
    const unsigned ticket = atomicAdd(count, 1u);  // [T]
    if (ticket == gridDim.x - 1) {                 // the last block to finish
      __threadfence();                             // [F2] reader fence: the others' counts after the ticket
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
