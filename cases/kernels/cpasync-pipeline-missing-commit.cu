// Bug: the cp.async tile load of cpasync-tile-syncthreads.cu (its fixed sibling) without __pipeline_commit():
// __pipeline_wait_prior(0) is cp.async.wait_group 0, which waits for committed groups only; the copy was never
// committed, so nothing retires it before __syncthreads() and the read of the other warp's element.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int32[64]=7,8 --arg out=int32[64] --assert 'out[63]==7 && out[62]==8 && out[0]==0'
// ptxmm-expect: race 25 28 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.ca.shared.global [..], [..], 4, 4;
// cp.async.wait_group 0 — no cp.async.commit_group anywhere; bar.sync 0; ld.shared.u32):
// * [C] (line 25) is in no cp.async-group: wait_group N ([G], line 26) waits until at most N of the most recent
//   committed groups are pending; only cp.async.wait_all commits first (§4.6). So the copy's async write has no
//   adone edge to any wait, and bar.sync ([S], line 27) orders only po-earlier events (async accesses are not
//   in po): the write of tile[t] and thread 63-t's read [R] (line 28) are unordered — weak, generic: a race,
//   kind no-synchronisation.
// * Assertion: [R] may read tile before the copy lands (no defined initial value): out[63]==7 can fail.
#include "host.cuh"

#include <cuda_pipeline.h>

__global__ void load_tile(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[t], sizeof(int));  // [C]
  __pipeline_wait_prior(0);  // [G] BUG: nothing was committed, so this waits for nothing
  __syncthreads();           // [S]
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
