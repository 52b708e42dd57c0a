// A "persistent kernel" work queue: a few CTAs loop taking work items with an atomicAdd ticket until the queue is
// empty; each item is processed by exactly the thread that drew its ticket. 2 CTAs of 32 threads, 100 items (not
// a multiple of the 64 threads).
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int32[100]=4,-1,6 --arg out=int32[100] --arg next=int32[1] --arg n=100 --assert 'out[0]==9 && out[1]==-1 && out[2]==13 && out[99]==1 && next[0]==164'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [T] atom.global.add.u32 (relaxed.gpu, §5.1) returning the
// ticket, the loop exit on ticket >= n, [L] ld.global.u32 in[ticket], [S] st.global.u32 out[ticket]):
// * The tickets: the [T]s (line 27) on next[0] are morally strong (.gpu, strong, §2.3) and linearized (§3.3), each
//   reading its predecessor, so the returned tickets are exactly 0, 1, 2, ... in coherence order, each drawn once.
// * Termination: every iteration draws a fresh ticket and the values only grow, so after at most 100 draws below n
//   every further draw is >= 100 and its thread leaves the loop (no fairness needed): each of the 64 threads draws
//   exactly one ticket >= 100, so next ends at 100 + 64 = 164.
// * Races: item i's [L] (line 35) reads `in`, which nobody writes, and its [S] (line 36) writes out[i]; ticket i is
//   drawn by one thread only, so out[i] is written once: no conflicting pair of different threads, race-free (§2.4).
// * Values: out[i] = 2 * in[i] + 1: out[0] = 9, out[1] = -1, out[2] = 13, out[99] = 1.
#include "host.cuh"

struct Queue {
  int* next;
  int n;
  // Draws the next ticket; -1 when the queue is exhausted.
  __device__ int take() {
    const int i = atomicAdd(next, 1);  // [T]
    return i < n ? i : -1;
  }
};

__global__ void persistent(const int* in, int* out, int* next, int n) {
  Queue q{next, n};
  for (int i = q.take(); i >= 0; i = q.take()) {
    const int v = in[i];  // [L]
    out[i] = 2 * v + 1;   // [S]
  }
}

int main() {
  int* in = device_buffer<int>(100, {4, -1, 6});
  int* out = device_buffer<int>(100);
  int* next = device_buffer<int>(1);
  persistent<<<2, 32>>>(in, out, next, 100);
  finish();
  print("out", out, 100, {0, 1, 2, 99});
  print("next", next, 1, {0});
  return 0;
}
