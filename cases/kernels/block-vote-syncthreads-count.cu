// Block-wide votes with __syncthreads_count / __syncthreads_or (bar.red.popc / bar.red.or): count the positive
// inputs of the block and ask whether any is negative, and use the same barriers to publish a shared-memory slot
// that another warp reads. Three warps (96 threads).
//
// ptxmm-launch: --grid 1 --block 96 --arg in=int32[96]=5,-1,7,0,2 --arg out=int32[4] --assert 'out[0]==3 && out[1]==1 && out[2]==5 && out[3]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [S] st.shared.u32, bar.red.popc.u32 0 (all threads),
// [R] ld.shared.u32 x2, bar.red.or.pred 0, [W2] st.shared.u32, [O] st.global.u32):
// * bar.red is a CTA barrier like bar.sync (§4.4: it waits for all participating threads — here every thread of
//   the CTA — and orders memory as bar.sync does): arrive sw wait (§2.8 rule 2). [S] (line 26) of every thread
//   is before the first bar.red (line 27); [R] (lines 28, 29) of every thread reads slot[95] and slot[94], stored by
//   threads 95 and 94 (warp 2): ordered by causality (§2.10 C1), no race. [W2] (line 31) overwrites slot[t] only
//   after the second bar.red (line 30), which every reader passes after its reads: ordered too. out[] is written
//   by thread 0 only. Race-free.
// * __syncthreads_count(in[t] > 0) counts in[0] = 5, in[2] = 7, in[4] = 2: 3 (in[1] = -1, the rest 0);
//   __syncthreads_or(in[t] < 0) is 1 (thread 1). [R] reads slot[95] = 95 - 90 = 5 and slot[94] = 4, the only
//   stores it is ordered after and not overwritten before it (§3.6): out = 3, 1, 5, 4 - 4 = 0.
#include "host.cuh"

__global__ void block_vote(const int* in, int* out) {
  __shared__ int slot[96];
  const int t = threadIdx.x;
  slot[t] = t - 90;  // [S]
  const int positives = __syncthreads_count(in[t] > 0);
  const int seen = slot[95];  // [R] written by warp 2
  const int last_but_one = slot[94];
  const int any_negative = __syncthreads_or(in[t] < 0);
  slot[t] = 0;  // [W2] only after everyone has read
  if (t == 0) {
    out[0] = positives;     // [O]
    out[1] = any_negative;
    out[2] = seen;
    out[3] = last_but_one - 4;
  }
}

int main() {
  int* in = device_buffer<int>(96, {5, -1, 7, 0, 2});
  int* out = device_buffer<int>(4);
  block_vote<<<1, 96>>>(in, out);
  finish();
  print("out", out, 4, {0, 1, 2, 3});
  return 0;
}
