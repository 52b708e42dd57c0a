// Warp-level stream compaction without atomics: each warp ballots "value > 0", a lane's slot is the popcount of
// the ballot below it (%lanemask_lt read with inline PTX), warp w writes its kept values to out[32w ...] and
// lane 0 stores the warp's count. One CTA of 64 threads. The addresses depend on the ballot, i.e. on the data.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=0,5,0,7,9,0,-1,4 --arg out=int32[64] --arg count=int32[2] --assert 'out[0]==5 && out[1]==7 && out[2]==9 && out[3]==4 && out[4]==0 && count[0]==4 && count[1]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32, vote.sync.ballot.b32 -1, mov of
// %lanemask_lt, popc.b32, [W] st.global.u32 under the predicate, [C] st.global.u32 by lane 0):
// * Warp 0 holds 0,5,0,7,9,0,-1,4,0,...: the ballot of v > 0 has lanes 1,3,4,7 (0x9A). Lane l's slot is
//   popc(ballot & lanemask_lt) (lanemask_lt = the lanes below l): lane 1 -> 0, lane 3 -> 1, lane 4 -> 2, lane 7 -> 3.
//   Distinct kept lanes get distinct slots and warp 1 (all zero) keeps none, so every out element is written by
//   at most one thread ([W], line 31) and count[w] once ([C], line 32): no conflicting pair, race-free (§2.4).
// * out = 5,7,9,4 then the untouched zeros; count[0] = popc(0x9A) = 4, count[1] = 0.
#include "host.cuh"

__device__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__global__ void compact(const int* in, int* out, int* count) {
  const int t = threadIdx.x;
  const int warp = t / 32;
  const int v = in[t];  // [L]
  const bool keep = v > 0;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  if (keep) out[warp * 32 + __popc(ballot & lanemask_lt())] = v;  // [W]
  if ((t & 31) == 0) count[warp] = __popc(ballot);  // [C]
}

int main() {
  int* in = device_buffer<int>(64, {0, 5, 0, 7, 9, 0, -1, 4});
  int* out = device_buffer<int>(64);
  int* count = device_buffer<int>(2);
  compact<<<1, 64>>>(in, out, count);
  finish();
  print("out", out, 64, {0, 1, 2, 3, 4});
  print("count", count, 2, {0, 1});
  return 0;
}
