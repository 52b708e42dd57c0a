// Tile load with cp.async (the __pipeline primitives), each thread waiting for its own copy, then __syncwarp()
// — but each thread reads an element that a thread of the other warp copied (the fix is
// cpasync-tile-syncthreads.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=7,8 --arg out=int32[64] --assert 'out[63]==7 && out[62]==8'
// ptxmm-expect: race 25 29 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.ca.shared.global [d], [s], 4, 4;
// cp.async.commit_group; cp.async.wait_group 0; bar.warp.sync -1; ld.shared):
// * [C] (line 25) is a cp.async: a weak asynchronous write of tile[t] in the generic proxy (§4.6).
//   cp.async.wait_group 0 makes it complete and visible to the issuing thread only (§4.6; reading A8).
// * __syncwarp() = bar.warp.sync orders the lanes of one warp (§4.5); thread t reads tile[63 - t] in [R]
//   (line 29), copied by thread 63 - t of the other warp. No barrier joins the two warps, so the copy is not
//   in causality order before the read: weak, different threads, a race, no-synchronisation.
// * [R] may read tile's initial contents instead of in[63 - t] (§3.6): out[63] == 7 can fail.
#include "host.cuh"

#include <cuda_pipeline.h>

__global__ void load_tile(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[t], sizeof(int));  // [C]
  __pipeline_commit();
  __pipeline_wait_prior(0);  // this thread's copy has landed
  __syncwarp();              // bug: publishes this warp's copies only
  out[t] = tile[63 - t];     // [R] copied by the other warp
}

int main() {
  int* in = device_buffer<int>(64, {7, 8});
  int* out = device_buffer<int>(64);
  load_tile<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {62, 63});
  return 0;
}
