// Warp-specialised producer/consumer over one shared buffer with two named barriers (the "full"/"empty" pair
// of CUTLASS-style kernels without mbarriers): warp 0 produces two rounds, its elect.sync leader also writing
// the round's header word; warp 1 consumes. bar.arrive / bar.sync with ids 1 and 2 and a count of 64. The fixed
// sibling of ws-named-barrier-elect-early-release.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=1,2 --arg out=int32[32] --assert 'out[31]==301 && out[30]==302 && out[0]==300'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: bar.sync 2, 64; st.shared; elect.sync; bar.arrive 1, 64;
// bar.sync 1, 64; ld.shared; bar.arrive 2, 64; the round loops are unrolled):
// * Round r: warp 0's stores [P] (line 44) and its leader's [H] (line 45) po bar.arrive 1 ([AF], line 46)
//   sw the consumer's bar.sync 1 ([WF], line 51) of the same generation (§2.8 rule 2, §4.4: the arrive half
//   releases, the sync half acquires) po the reads [C] (line 52) and [CH] (line 53): ordered, no race; each
//   generation of barrier 1 is filled by exactly the two warps (64 threads), once per round.
// * WAR: round 0's reads po the consumer's bar.arrive 2 ([AE], line 54) sw the producer's bar.sync 2 ([WE],
//   line 43) po round 1's stores: ordered, no race. The consumer arrives on barrier 2 only in round 0, the
//   producer waits on it only in round 1: one generation, filled.
// * Values: out[l] = in[31-l] + in[63-l] + 100 + 200: out[31] = 1 + 300, out[30] = 2 + 300, out[0] = 300.
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
      acc += buf[31 - lane];  // [C]
      acc += header;  // [CH]
      if (r + 1 < kRounds) bar_arrive(2);  // [AE]
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
