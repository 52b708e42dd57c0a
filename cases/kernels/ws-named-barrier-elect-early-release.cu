// Bug: the warp-specialised two-round kernel of ws-named-barrier-elect-two-rounds.cu with the consumer's
// "empty" bar.arrive moved before its reads (releasing the buffer early, to let the producer start sooner): the
// producer's bar.sync on the empty barrier returns and it refills the buffer and the header for round 1 while
// the consumer warp may still be reading round 0.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2 --arg out=int32[32] --assert 'out[31]==301 && out[30]==302 && out[0]==300'
// ptxmm-expect: race 46 55 no-synchronisation
// ptxmm-expect: race 47 56 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, bar.arrive 2, 64 before the
// ld.shared of round 0):
// * The consumer's bar.arrive 2 ([AE], line 54) sw the producer's bar.sync 2 ([WE], line 45), but round 0's
//   reads [C] (line 55) and [CH] (line 56) are po AFTER [AE]: the edge orders nothing the consumer does later
//   (§4.4, §2.8: only po-earlier accesses are released). Round 1's stores [P] (line 46) and [H] (line 47) are
//   therefore unordered with round 0's reads of the same words: weak, generic — races [P]-[C] and [H]-[CH],
//   kind no-synchronisation. (Round 1's reads still follow generation 2 of barrier 1: no race with round 1.)
// * Barrier generations stay well formed: the producer arrives on barrier 1 again only after [WE], i.e. after
//   the consumer's first bar.sync 1 ([WF], line 53) completed, so nothing hangs and no warp re-arrives early.
// * Assertion: round 0's read may see round 1's values: out[31]==301 can fail (in[32] + 200 + 0 + 200 = 400 is
//   permitted).
#include "host.cuh"

#include <cstdint>

constexpr int kRounds = 2;

__device__ void bar_arrive(int id) { asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory"); }
__device__ void bar_sync(int id) { asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }

// True in one lane of the (converged) warp, the one elect.sync picks.
__device__ bool elect_one() {
  uint32_t leader;
  asm volatile("{ .reg .b32 rx; .reg .pred px; elect.sync rx|px, 0xffffffff; selp.u32 %0, 1, 0, px; }" : "=r"(leader));
  return leader != 0;
}

__global__ void ws_rounds(const int* in, int* out) {
  __shared__ int buf[32];
  __shared__ int header;
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {  // producer warp
    for (int r = 0; r < kRounds; ++r) {
      if (r > 0) bar_sync(2);  // [WE] the consumer has read the previous round
      buf[lane] = in[r * 32 + lane];  // [P]
      if (elect_one()) header = 100 * (r + 1);  // [H]
      bar_arrive(1);  // [AF]
    }
  } else {  // consumer warp
    int acc = 0;
    for (int r = 0; r < kRounds; ++r) {
      bar_sync(1);  // [WF]
      if (r + 1 < kRounds) bar_arrive(2);  // [AE] BUG: releases the buffer before reading it
      acc += buf[31 - lane];  // [C]
      acc += header;  // [CH]
    }
    out[lane] = acc;
  }
}

int main() {
  int* in = device_buffer<int>(64, {1, 2});
  int* out = device_buffer<int>(32);
  ws_rounds<<<1, 64>>>(in, out);
  finish();
  print("out", out, 32, {0, 30, 31});
  return 0;
}
