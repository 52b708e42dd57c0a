// Warp-aggregated append (the "atomicAggInc" idiom) with the classic slip: the warp's leader (its lowest kept
// lane) reserves the warp's slots with one atomicAdd, but the base is never broadcast, so the other kept lanes
// index from 0 and write into the first elements — where the other warp's lanes write too. The output already
// holds 32 elements (count starts at 32); the fix is compact-append-broadcast.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=0,5,6,7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9,8 --arg out=int32[64] --arg count=int32[1]=32 --assert 'count[0]==37 && out[0]==0' --observe 'out[1]'
// ptxmm-expect: race 34 34 no-synchronisation
// ptxmm-expect: assert holds
// ptxmm-expect: observe out[1] 6,8
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: vote.sync.ballot.b32, brev/bfind (__ffs), popc.b32,
// [A] atom.global.add.u32 (relaxed.gpu, §5.1), [W] st.global.u32):
// * Warp 0 keeps lanes 1, 2, 3 (5, 6, 7), leader lane 1; warp 1 keeps lanes 33, 34 (9, 8), leader lane 33. The two
//   [A]s (line 32) are morally strong RMWs of count (no race) and linearized (§3.3): warp 0 gets 32 and warp 1 35,
//   or warp 1 32 and warp 0 34; count ends at 32 + 3 + 2 = 37.
// * The leaders store at out[base] ([W], line 34): out[32] or out[34] (warp 0), out[32] or out[35] (warp 1) —
//   never the same element (the ranges [base, base + count) of the two reservations are disjoint).
// * The other kept lanes still have base 0: lanes 2 and 3 store out[1] and out[2], lane 34 stores out[1]. Lanes 2
//   and 34 are in different warps, their weak stores to out[1] conflict and nothing orders them (no barrier, no
//   fence, no synchronising access between them): a data race on line 34 (no-synchronisation, §2.4).
// * out[0] is written by nobody (0); out[1] ends as one of the two racing stores (§2.12): 6 or 8.
#include "host.cuh"

__global__ void append(const int* in, int* out, int* count) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  const unsigned kept = __ballot_sync(0xffffffffu, v > 0);
  if (v > 0) {
    const int leader = __ffs(kept) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(kept));  // [A]
    // bug: no `base = __shfl_sync(kept, base, leader);` — the other lanes keep base 0
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
  print("out", out, 64, {0, 1, 2, 32, 33, 34, 35, 36});
  return 0;
}
