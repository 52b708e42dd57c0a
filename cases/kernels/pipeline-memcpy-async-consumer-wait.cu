// cuda::pipeline<thread_scope_thread> with cuda::memcpy_async (cp.async): every thread copies its element of a
// tile from global to shared memory, commits, waits as the consumer (consumer_wait = cp.async.wait_group), then
// __syncthreads() and reads another thread's element (the fix; the bug without consumer_wait is
// pipeline-memcpy-async-no-wait.cu). Two CTAs of 2-D 32x2 blocks.
//
// ptxmm-launch: --grid 2 --block 32,2 --arg in=int32[128]=5,6,7 --arg out=int32[128] --assert 'out[63]==5 && out[62]==6 && out[61]==7 && out[0]==0 && out[127]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [C] cp.async.ca.shared.global 4 bytes,
// cp.async.commit_group, [WG] cp.async.wait_group 0, bar.sync 0, [R] ld.shared.u32, st.global.u32):
// * t = x + 32y. Thread t's [C] (line 30) writes tile[t]; its completion is ordered before the thread's own
//   later instructions by cp.async.wait_group (line 32, CA1 / A8 §4), which precedes the `bar.sync 0` (line 33)
//   executed by all 64 threads of the CTA (§4.4); thread 63 - t's [R] (line 34) of tile[t] follows the barrier:
//   copy write -> wait_group -> bar sw bar -> read, causality order (§2.10). Every conflicting pair is so
//   ordered: race-free. `in` is only read; out[g] is written once.
// * Values: out[g] = in[64 * CTA + 63 - t]: out[63] = 5, out[62] = 6, out[61] = 7, out[0] = 0; CTA 1 copies zeros:
//   out[127] = 0.
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
  pipe.consumer_wait();  // [WG] this thread's copy has landed
  __syncthreads();       // [B] and everyone else's
  out[base + t] = tile[63 - t];  // [R]
  pipe.consumer_release();
}

int main() {
  int* in = device_buffer<int>(128, {5, 6, 7});
  int* out = device_buffer<int>(128);
  staged<<<2, dim3(32, 2)>>>(in, out);
  finish();
  print("out", out, 128, {0, 61, 62, 63, 127});
  return 0;
}
