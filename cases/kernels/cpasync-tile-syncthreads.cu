// Tile load with cp.async (the __pipeline primitives), each thread waiting for its own copy, then
// __syncthreads() before reading elements copied by the other warp. The fixed sibling of
// cpasync-tile-syncwarp.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=7,8 --arg out=int32[64] --assert 'out[63]==7 && out[62]==8 && out[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.ca.shared.global; cp.async.commit_group;
// cp.async.wait_group 0; bar.sync 0; ld.shared):
// * [C] (line 23) writes tile[t] asynchronously; cp.async.wait_group 0 ([G], line 25) retires it: the copy's
//   write is in base causality before the wait (§4.6: adone edges to the wait_group event, reading A8), then
//   po bar.sync 0 sw bar.sync of every thread (§2.8 rule 2) po [R] (line 27). Generic proxy, same address:
//   causality order (§2.10 C1), no race, and [R] reads the copied value (litmus CA1, §7.10).
#include "host.cuh"

#include <cuda_pipeline.h>

__global__ void load_tile(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[t], sizeof(int));  // [C]
  __pipeline_commit();
  __pipeline_wait_prior(0);  // [G] this thread's copy has landed
  __syncthreads();           // ... and everyone's, for everyone
  out[t] = tile[63 - t];     // [R]
}

int main() {
  int* in = device_buffer<int>(64, {7, 8});
  int* out = device_buffer<int>(64);
  load_tile<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 62, 63});
  return 0;
}
