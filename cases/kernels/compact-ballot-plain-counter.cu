// Warp-aggregated stream compaction whose slot reservation is a plain read and update of the counter instead of
// atomicAdd: two warps can reserve the same slots and overwrite each other's output (the fix is
// compact-ballot-atomic.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=5,0,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9 --arg out=int32[64] --arg count=int32[1] --assert 'count[0]==3 && out[3]==0' --observe 'out[0]'
// ptxmm-expect: race 34 35 no-synchronisation
// ptxmm-expect: race 35 35 no-synchronisation
// ptxmm-expect: race 39 39 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: observe out[0] 5,9
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: vote.sync.ballot.b32, popc.b32, [A] ld.global.u32,
// [B] st.global.u32, shfl.sync.idx.b32, [W] st.global.u32):
// * Lane 0 of each warp loads count ([A], line 34) and stores base + popc ([B], line 35). These are weak accesses
//   of two warps with no barrier or fence between them: data races [A]-[B] (34-35) and [B]-[B] (35-35),
//   no-synchronisation (§2.4); two loads do not conflict.
// * Warp 0 keeps lanes 0 and 2 (5, 7), warp 1 lane 0 (in[32] = 9). count is only written by the [B]s (2 by warp 0
//   after reading 0, 1 by warp 1 after reading 0, or 3), so warp 0's base is 0 or 1 and warp 1's 0 or 2. When both
//   read the initial 0 (§3.6 allows it), warp 0's lane 0 and warp 1's lane 0 both store out[0] ([W], line 39): a
//   weak write-write conflict, unordered: race 39-39. count then ends at 2 or 1: the assertion fails.
// * out[0]: base0 = 1 needs warp 1's store (so base1 = 0) and base1 = 2 needs warp 0's (so base0 = 0): someone
//   always writes out[0], 5 (warp 0) or 9 (warp 1), and the final value is one of those stores (§2.12): {5, 9}.
#include "host.cuh"

__global__ void compact(const int* in, int* out, int* count) {
  const int t = threadIdx.x;
  const int lane = t & 31;
  const int v = in[t];
  const bool keep = v > 0;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  int base = 0;
  if (lane == 0) {
    base = *count;                     // [A] bug: not atomic
    *count = base + __popc(ballot);    // [B]
  }
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) {
    out[base + __popc(ballot & ((1u << lane) - 1))] = v;  // [W]
  }
}

int main() {
  std::vector<int> in(64, 0);
  in[0] = 5, in[2] = 7, in[32] = 9;
  int* d_in = device_buffer<int>(64, in);
  int* out = device_buffer<int>(64);
  int* count = device_buffer<int>(1);
  compact<<<1, 64>>>(d_in, out, count);
  finish();
  print("count", count, 1, {0});
  print("out", out, 64, {0, 1, 2, 3});
  return 0;
}
