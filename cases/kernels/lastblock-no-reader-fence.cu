// Last-block reduction without the reader's fence, as the classic threadFenceReduction shape has it: the
// writer fences before its ticket, but the last block reads the partials right after its atomicAdd with no
// acquire (the fix is lastblock-fenced.cu).
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=-1,-2,5 --arg partial=int32[4] --arg count=uint32[1] --arg out=int32[1] --assert 'out[0]==254'
// ptxmm-expect: race 37 43 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence() = membar.gl = fence.sc.gpu,
// atomicAdd = atom.global.add.u32, .relaxed.gpu by default, §1.5, §5.2):
// * [W] (line 37) and [R] (line 43) conflict: weak st / weak ld of partial[b] by block b's and the last
//   block's thread 0.
// * The writer side is a release pattern ([F1] po [T], rp3), but the last block's [T] is followed by no
//   acquire fence and is not an acquire atom, so it ends no acquire pattern (§2.5 ap1-ap3): no sw through
//   the ticket (§2.8 rule 4).
// * The only other source of sw is the Fence-SC order between the [F1] of block b and the [F1] of the last
//   block (both fence.sc.gpu, ms, §2.7). In executions where F1_last precedes F1_b, F1_last sw F1_b orders
//   the last block's earlier accesses before block b's later ones — not [W] before [R]. That order is
//   permitted: no base-causality path leads from F1_b to F1_last (the relaxed ticket RMWs form no acquire
//   pattern on the last block's side), so the Fence-SC axiom (§3.2, A2) allows F1_last first, and it puts
//   no constraint on the tickets' coherence order. In those executions [W] and [R] are weak, not ms, and not
//   in causality order: a race, no-synchronisation (one permitted execution with it is enough, §2.4).
// * In the same executions [R] may read the initial 0 of partial[b]: out[0] == 254 is not guaranteed.
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
    __threadfence();                               // [F1] writer fence
    const unsigned ticket = atomicAdd(count, 1u);  // [T]
    if (ticket == gridDim.x - 1) {                 // the last block to finish; missing: __threadfence()
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
