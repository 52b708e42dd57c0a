// Float accumulation with atomicAdd(float*, float) from every thread of two blocks (atom.global.add.f32): the
// values are exact in binary (multiples of 0.25), so any order of the additions gives the same sum. The observed
// set is the check: one final value, no lost update.
//
// ptxmm-launch: --grid 2 --block 32 --arg w=float32[64]=0.25,0.5,0.75,1.5 --arg total=float32[1] --observe 'total[0]'
// ptxmm-expect: race-free
// ptxmm-expect: observe total[0] 3
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.f32, [A] atom.global.add.f32 =
// .relaxed.gpu, §5.1):
// * The 64 [A]s (line 20) are strong .gpu atomics on total[0], every pair morally strong (§2.3): no data race.
//   [L] (line 20) only reads w, which nobody writes.
// * Atomicity (§3.3): the RMWs are totally ordered and each reads its predecessor, so total[0] is the sum of all
//   64 addends in some order: 0.25 + 0.5 + 0.75 + 1.5 (+ 60 zeros) = 3. Every partial sum is a multiple of 0.25
//   below 4, exact in binary32, so no order rounds differently: the only final value is 3.
#include "host.cuh"

__global__ void accumulate(const float* w, float* total) {
  atomicAdd(total, w[blockIdx.x * blockDim.x + threadIdx.x]);  // [L] [A]
}

int main() {
  float* w = device_buffer<float>(64, {0.25f, 0.5f, 0.75f, 1.5f});
  float* total = device_buffer<float>(1);
  accumulate<<<2, 32>>>(w, total);
  finish();
  print("total", total, 1, {0});
  return 0;
}
