// Warp-aggregated stream compaction: each warp votes with __ballot_sync which lanes keep their element, lane 0
// reserves __popc(ballot) output slots with one atomicAdd, __shfl_sync broadcasts the base, and each kept lane
// writes at base + (the number of kept lanes below it). The bug, a plain counter update, is
// compact-ballot-plain-counter.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=5,0,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9 --arg out=int32[64] --arg count=int32[1] --assert 'count[0]==3 && out[3]==0' --observe 'out[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[0] 5,9
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: vote.sync.ballot.b32, popc.b32, [A] atom.global.add.u32
// (.relaxed.gpu, §5.1), shfl.sync.idx.b32, [W] st.global.u32; the votes and shuffles are register exchanges, not
// memory events):
// * Warp 0 keeps lanes 0 and 2 (5, 7), warp 1 lane 0 (in[32] = 9). The two [A]s (line 31) are ms RMWs on count:
//   no race, and by atomicity (§3.3) one reads 0 and the other the first one's result: warp 0 gets base 0 and
//   warp 1 base 2, or warp 1 base 0 and warp 0 base 1. count ends at 3.
// * The [W]s (line 35) write out[base + rank]: warp 0 at {0, 1} or {1, 2}, warp 1 at {2} or {0} — disjoint in
//   every execution, so no two threads write the same element: no conflict on out, race-free (§2.4).
// * Final out[0..2] is 5, 7, 9 or 9, 5, 7: out[3] stays 0 (the assertion holds), and out[0] is 5 or 9.
#include "host.cuh"

__global__ void compact(const int* in, int* out, int* count) {
  const int t = threadIdx.x;
  const int lane = t & 31;
  const int v = in[t];
  const bool keep = v > 0;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  int base = 0;
  if (lane == 0) {
    base = atomicAdd(count, __popc(ballot));  // [A] one reservation per warp
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
