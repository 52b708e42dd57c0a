// Warp-aggregated append (the "atomicAggInc" idiom), correct: the warp's leader (its lowest kept lane) reserves
// the warp's slots with one atomicAdd and __shfl_sync from the leader gives every kept lane the base; each lane
// writes at base + (the number of kept lanes below it). The output already holds 32 elements (count starts at
// 32). The bug, the base not broadcast, is compact-append-no-broadcast.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=0,5,6,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9,8 --arg out=int32[64] --arg count=int32[1]=32 --assert 'count[0]==37 && out[1]==0 && out[37]==0' --observe 'out[32]' --observe 'out[34]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[32] 5,9
// ptxmm-expect: observe out[34] 5,7
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: vote.sync.ballot.b32, brev/bfind (__ffs), popc.b32,
// [A] atom.global.add.u32 (relaxed.gpu, §5.1), shfl.sync.idx.b32 with the kept lanes as member mask, [W]
// st.global.u32; the vote and the shuffle are register exchanges, not memory events, and order nothing):
// * Warp 0 keeps lanes 1, 2, 3 (5, 6, 7), leader lane 1; warp 1 keeps lanes 33, 34 (9, 8), leader lane 33. The two
//   [A]s (line 34) are morally strong RMWs of count (no race) and linearized (§3.3), each reading the other's
//   result or the initial 32: warp 0 gets base 32 and warp 1 35, or warp 1 32 and warp 0 34; count ends at 37.
// * The [W]s (line 36) write out[base + rank]: warp 0 at {32, 33, 34} or {34, 35, 36}, warp 1 at {35, 36} or
//   {32, 33}: disjoint in every execution, so no two threads write one element; nothing else touches out:
//   race-free (§2.4).
// * out[1] and out[37] are never written (0). out[32] is warp 0's first value 5 or warp 1's 9; out[34] is warp 0's
//   third value 7 (warp 0 first) or its first value 5 (warp 1 first): each is written once, so the final value is
//   that store's (§2.12).
#include "host.cuh"

__global__ void append(const int* in, int* out, int* count) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  const unsigned kept = __ballot_sync(0xffffffffu, v > 0);
  if (v > 0) {
    const int leader = __ffs(kept) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(kept));  // [A]
    base = __shfl_sync(kept, base, leader);
    out[base + __popc(kept & ((1u << lane) - 1))] = v;  // [W]
  }
}

int main() {
  std::vector<int> in(64, 0);
  in[1] = 5, in[2] = 6, in[3] = 7, in[33] = 9, in[34] = 8;
  int* d_in = device_buffer<int>(64, in);
  int* out = device_buffer<int>(64);
  int* count = device_buffer<int>(1, {32});
  append<<<1, 64>>>(d_in, out, count);
  finish();
  print("count", count, 1, {0});
  print("out", out, 64, {1, 32, 33, 34, 35, 36, 37});
  return 0;
}
