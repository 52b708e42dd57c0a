// Bug: the three-stage cp.async loop of cpasync-ring3-wait-prior-one.cu waiting with __pipeline_wait_prior(2)
// (the stage count minus one, a common off-by-one): the group of the stage about to be read is still in flight,
// and the copy refilling buffer 0 is issued while the first copy into it may not have landed.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[192]=1,10,100 --arg out=int32[64] --assert 'out[63]==111 && out[0]==0'
// ptxmm-expect: race 36 43 no-synchronisation
// ptxmm-expect: race 39 43 no-synchronisation
// ptxmm-expect: race 36 39 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.ca.shared.global [..], [..], 4, 4;
// cp.async.commit_group; cp.async.wait_group 2; bar.sync 0; ld.shared.u32; the loop is unrolled 3 times):
// * At iteration k, groups g0..g(k+1) are committed (g0 = the prologue copy [P], line 36; g(k+1) = the copy [C],
//   line 39, of iteration k, empty at k = 2); wait_group 2 ([G], line 41) retires only g0..g(k-1). The stage read
//   at k is in g(k), not retired: nothing orders its async write (AW, weak, generic) before another thread's read
//   [R] (line 43) — bar.sync orders only po-earlier events and the WG, and the AW reaches neither (§4.6: async
//   accesses are not in po; only a wait that retires them gives adone edges; A8). Stage 0 comes from [P]
//   (k = 0), stages 1 and 2 from [C] (k = 0, 1): races [P]-[R] and [C]-[R], weak, same proxy: no-synchronisation.
// * [C] at k = 1 writes buf[0][t], which [P] of the same thread wrote; g0 is retired only by the wait of k = 1,
//   po AFTER that [C] is issued. Two async writes of one thread are not po-related (so not ms, §2.3) and
//   nothing orders them: a write-write race [P]-[C] (§2.4).
// * The WAR direction is still ordered by [S2] (line 44) as in the fixed sibling.
// * Assertion: [R] of thread 63 may read buf before thread 0's copies land (shared memory has no defined
//   initial value, so a value other than 1, 10, 100 is permitted): out[63]==111 can fail.
#include "host.cuh"

#include <cuda_pipeline.h>

constexpr int kStages = 3;

__global__ void ring(const int* in, int* out) {
  __shared__ int buf[2][64];
  const int t = threadIdx.x;
  int acc = 0;
  __pipeline_memcpy_async(&buf[0][t], &in[t * kStages], sizeof(int));  // [P]
  __pipeline_commit();
  for (int k = 0; k < kStages; ++k) {
    if (k + 1 < kStages) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[t * kStages + k + 1], sizeof(int));  // [C]
    __pipeline_commit();
    __pipeline_wait_prior(2);   // [G] BUG: leaves the two newest groups in flight, stage k among them
    __syncthreads();            // [S1] ... for every thread
    acc += buf[k & 1][63 - t];  // [R]
    __syncthreads();            // [S2] stage k is read before iteration k+1 refills its buffer
  }
  out[t] = acc;
}

int main() {
  int* in = device_buffer<int>(192, {1, 10, 100});
  int* out = device_buffer<int>(64);
  ring<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 63});
  return 0;
}
