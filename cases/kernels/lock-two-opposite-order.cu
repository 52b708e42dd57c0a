// Two spin locks taken in opposite orders: block 0's thread 0 takes A then B, block 1's thread 0 takes B then
// A (a transfer between two accounts, each lock guarding one). Both can hold their first lock and spin on the
// other's for ever: a deadlock (the fix, one global lock order, is lock-two-same-order.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg locks=int32[2] --arg acct=int32[2]=100,50
// ptxmm-expect: race-free
// ptxmm-expect: hang 36
// ptxmm-expect: hang 43
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX checked: atom.global.cas.b32
// in each acquire loop (the helper is inlined; lines are its call sites), membar.gl, atom.global.exch.b32):
// * Execution: block 0's CAS on locks[0] at [L1A] succeeds (0 -> 1), block 1's CAS on locks[1] at [L1B]
//   succeeds; now block 0 spins at [L2A] on locks[1] and block 1 at [L2B] on locks[0]. Each lock is released
//   only after its holder's second acquire, which never succeeds: every later CAS reads 1 and writes nothing.
//   Both threads spin for ever in a fair execution: hangs at [L2A] and [L2B].
// * No race: whenever both critical sections run, they are ordered by the lock hand-off as in
//   lock-cas-threadfence.cu (release fence + exch, CAS + acquire fence, §2.8 rule 4).
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
    lock(&locks[1]);  // [L1B]
    lock(&locks[0]);  // [L2B]
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
  finish(5);
  print("acct", acct, 2, {0, 1});
  return 0;
}
