// The fix of lock-two-opposite-order.cu: both blocks take lock A (locks[0]) before lock B, so whoever holds A
// can always get B: no deadlock.
//
// ptxmm-launch: --grid 2 --block 32 --arg locks=int32[2] --arg acct=int32[2]=100,50 --assert 'acct[0]==110 && acct[1]==40 && locks[0]==0 && locks[1]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in lock-two-opposite-order.cu):
// * The thread that takes A first also takes B (B is only ever taken by A's holder, and free when A is), then
//   releases both; the other then takes both. Each acquire loop ends (fair progress).
// * The two critical sections are ordered by the hand-off of A (release fence + exch of locks[0], CAS + acquire
//   fence, §2.8 rule 4, §2.10): race-free, and the second section reads the first's results (§3.6): acct[0] =
//   100 - 10 + 20 = 110, acct[1] = 50 + 10 - 20 = 40; both locks end 0.
#include "host.cuh"

__device__ void lock(int* l) {
  while (atomicCAS(l, 0, 1) != 0) {
  }
  __threadfence();
}

__device__ void unlock(int* l) {
  __threadfence();
  atomicExch(l, 0);
}

__global__ void transfer(int* locks, int* acct) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    lock(&locks[0]);  // [L1A]
    lock(&locks[1]);  // [L2A]
    acct[0] -= 10;
    acct[1] += 10;
    unlock(&locks[1]);
    unlock(&locks[0]);
  } else {
    lock(&locks[0]);  // [L1B] same order as block 0
    lock(&locks[1]);  // [L2B]
    acct[1] -= 20;
    acct[0] += 20;
    unlock(&locks[0]);
    unlock(&locks[1]);
  }
}

int main() {
  int* locks = device_buffer<int>(2);
  int* acct = device_buffer<int>(2, {100, 50});
  transfer<<<2, 32>>>(locks, acct);
  finish();
  print("acct", acct, 2, {0, 1});
  return 0;
}
