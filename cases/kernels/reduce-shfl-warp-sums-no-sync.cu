// reduce-shfl-warp-sums-syncthreads.cu without the barrier: warp 0 reads the sums of warps 1 and 2 from shared
// memory while those warps may not have stored them yet.
//
// ptxmm-launch: --grid 2 --block 96 --arg in=int64[192]=1,2,3,4,5,6,7,8,9,10 --arg out=int64[2] --assert 'out[1]==96'
// ptxmm-expect: race 27 30 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: no bar.sync between st.shared.u64 [S] and
// ld.shared.u64 [L]):
// * Lanes 1 and 2 of warp 0 read ws[1], ws[2] at [L], stored at [S] by threads 32 and 64 (other warps):
//   weak, conflicting, unordered: a race (§2.4); lane 0 reads its own warp's slot (po-ordered).
// * [L] may read ws[1] before thread 32 writes it: shared memory's initial value is undefined, so out[1] is
//   not guaranteed to be 96 — the assertion fails (an execution reading a value other than 32 exists whatever
//   the initial contents).
#include "host.cuh"

__device__ long long warp_sum(long long v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void block_sum(const long long* in, long long* out) {
  __shared__ long long ws[3];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  long long v = warp_sum(in[blockIdx.x * blockDim.x + t] + 1);
  if (lane == 0) ws[warp] = v;  // [S]
  // missing: __syncthreads() before warp 0 reads the warp sums
  if (warp == 0) {
    v = lane < 3 ? ws[lane] : 0;  // [L]
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

int main() {
  long long* in = device_buffer<long long>(192, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  long long* out = device_buffer<long long>(2);
  block_sum<<<2, 96>>>(in, out);
  finish();
  print("out", out, 2, {0, 1});
  return 0;
}
