// A cuda::counting_semaphore<thread_scope_device, 4> limiting a critical section to 4 threads (seed 000,
// limited_concurrency_kernel); inside, each thread counts itself in and out with atomics and records the
// largest count it saw, so the claim "max 4 threads here" becomes an assertion on final memory.
//
// ptxmm-launch: --grid 2 --block 4 --arg inside=int32[1] --arg peak=int32[1] --assert 'peak[0]<=4 && inside[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: acquire() polls the 64-bit count with
// ld.acquire/ld.relaxed.gpu and takes a permit with atom.cas.acquire.gpu.b64 (count -> count - 1, only when
// count > 0); release() is atom.add.release.gpu.u64 1; atomicAdd/Max/Sub are atom.global.*, .relaxed.gpu):
// * Every access is strong: the semaphore's RMWs and loads (.gpu), and the atomics on inside and peak
//   (.relaxed.gpu): all pairs are morally strong (§2.3), so there is no race.
// * peak[0] <= 4. The semaphore's RMWs are ms, linearized (§3.3), and count never drops below 0, so at any
//   point of its coherence order at most 4 takes are not yet matched by gives. Suppose five threads were
//   inside together, i.e. all five increments of `inside` precede all five decrements in its coherence order.
//   Let L be the one of them whose take comes last in the semaphore's order. Before L's take, the other four
//   and some k outsiders took permits, so at least 1 + k gives precede it; gives come only from threads that
//   took before, and the k outsiders give at most k, so one of the four, R, gave before L took. R's give
//   (atom.add.release: rp1) obs L's take (atom.cas.acquire: ap1) through the chain of ms RMWs on the count
//   (§2.6): sw (§2.8 rule 4), so R's decrement [D] (line 37) po give sw take po L's increment [I] (line 35):
//   causality order, and Coherence (§3.1) puts R's decrement before L's increment — contradicting that R was
//   still inside. So `now` <= 4 everywhere and peak[0] <= 4 (atomicMax [M], line 36, is linearized too).
// * inside[0]: each thread adds 1 and subtracts 1 with linearized RMWs: 0 at the end.
#include "host.cuh"

#include <cuda/semaphore>

// Limit to 4 concurrent threads in critical section
__device__ cuda::counting_semaphore<cuda::thread_scope_device, 4> sem{4};

__global__ void limited_concurrency_kernel(int* inside, int* peak) {
  sem.acquire();  // Blocks if 4 threads already inside
  const int now = atomicAdd(inside, 1) + 1;  // [I]
  atomicMax(peak, now);                      // [M]
  atomicSub(inside, 1);                      // [D]
  sem.release();  // Allow another thread to enter
}

int main() {
  int* inside = device_buffer<int>(1);
  int* peak = device_buffer<int>(1);
  limited_concurrency_kernel<<<2, 4>>>(inside, peak);
  finish();
  print("inside", inside, 1, {0});
  print("peak", peak, 1, {0});
  return 0;
}
