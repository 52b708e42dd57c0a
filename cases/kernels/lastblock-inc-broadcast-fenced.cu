// Two-phase sum (the threadFenceReduction shape): each block's thread 0 publishes its partial with a fence and
// takes an atomicInc ticket that wraps the counter back to 0; the last block broadcasts "I am last" through
// shared memory and a __syncthreads(), and threads 0..3 copy the partials out. Thread 0 fences after the
// ticket, BEFORE the barrier (the bug with that fence after the barrier is lastblock-inc-fence-after-sync.cu).
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=1,2,3 --arg partial=int32[4] --arg count=uint32[1] --arg out=int32[4] --assert 'out[0]==70 && out[1]==64 && out[3]==64 && count[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: redux.sync.add per warp, atom.global.inc.u32 [T]
// (relaxed.gpu), membar.gl at [FW] and [FR], `bar.sync 0` at [B]):
// * Partials: 64 + the block's inputs: 70, 64, 64, 64 (two warp sums combined by thread 0 after a barrier).
// * Writer b: [W] po [FW] (fence.sc) po [T] (strong RMW): release pattern. The last block's thread 0: [T]
//   reads the value the other three RMWs left (atomicity, §3.3: the inc chain 0,1,2,3 in some order), po [FR]:
//   acquire pattern; FW sw FR (§2.8 rule 4, ms .gpu fences, the observation through the RMW chain §2.6).
// * [FR] po [B]; [B] sw_bar the other threads' [B] (§2.8 rule 2), po their [R]: [W] of every block is in
//   causality order before every [R] (§2.10): race-free, and [R] reads the partial (§3.6).
// * Exactly one block draws ticket 3 (inc with bound 3: 0 -> 1 -> 2 -> 3 -> 0, so count ends 0); is_last is the
//   same for every thread of a block (written by thread 0 before [B], read after it).
#include "host.cuh"

__global__ void two_phase(const int* in, int* partial, unsigned* count, int* out) {
  __shared__ int warp_sum[2];
  __shared__ bool is_last;
  const int t = threadIdx.x;
  const int v = __reduce_add_sync(0xffffffffu, in[blockIdx.x * blockDim.x + t] + 1);
  if (t % 32 == 0) warp_sum[t / 32] = v;
  __syncthreads();
  if (t == 0) {
    partial[blockIdx.x] = warp_sum[0] + warp_sum[1];  // [W]
    __threadfence();                                   // [FW]
    const unsigned ticket = atomicInc(count, gridDim.x - 1);  // [T]
    is_last = ticket == gridDim.x - 1;
    __threadfence();  // [FR]
  }
  __syncthreads();  // [B]
  if (is_last && t < gridDim.x) out[t] = partial[t];  // [R]
}

int main() {
  int* in = device_buffer<int>(256, {1, 2, 3});
  int* partial = device_buffer<int>(4);
  unsigned* count = device_buffer<unsigned>(1);
  int* out = device_buffer<int>(4);
  two_phase<<<4, 64>>>(in, partial, count, out);
  finish();
  print("out", out, 4, {0, 1, 3});
  print("count", count, 1, {0});
  return 0;
}
