// cuda::pipeline<thread_scope_thread> with cuda::memcpy_async (cp.async) WITHOUT consumer_wait() before the
// __syncthreads() (the bug; the fix is pipeline-memcpy-async-consumer-wait.cu): the barrier orders the issue of
// the copies, not their completion, so a thread may read another thread's tile element before its copy lands.
//
// ptxmm-launch: --grid 2 --block 32,2 --arg in=int32[128]=5,6,7 --arg out=int32[128]
// ptxmm-expect: race 27 31 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [C] cp.async.ca.shared.global 4 bytes,
// cp.async.commit_group, bar.sync 0, [R] ld.shared.u32; no cp.async.wait_group before the read):
// * t = x + 32y. Thread t's [C] (line 27) writes tile[t] asynchronously: its write is ordered after the issuing
//   thread's later instructions only through cp.async.wait_group / wait_all or an mbarrier (CA1 / A8, §4); the
//   `bar.sync 0` (line 30) orders the issue, not the write. So the copy's write and thread 63 - t's [R] (line 31) of
//   tile[t] are unordered: a weak write and a weak read of one address by different threads, a data race (§2.4),
//   kind no-synchronisation (cpasync-tile-syncwarp.cu has the same pair kind).
// * No other conflicting pair (`in` is only read, out[g] written once); no assertion.
#include "host.cuh"

#include <cuda/pipeline>

__global__ void staged(const int* in, int* out) {
  __shared__ alignas(16) int tile[64];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int base = blockIdx.x * 64;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[t], &in[base + t], cuda::aligned_size_t<4>(sizeof(int)), pipe);  // [C]
  pipe.producer_commit();
  // BUG: no pipe.consumer_wait() here: the barrier below does not wait for the copies to land
  __syncthreads();  // [B]
  out[base + t] = tile[63 - t];  // [R]
}

int main() {
  int* in = device_buffer<int>(128, {5, 6, 7});
  int* out = device_buffer<int>(128);
  staged<<<2, dim3(32, 2)>>>(in, out);
  finish();
  print("out", out, 128, {0, 61, 62, 63, 127});
  return 0;
}
