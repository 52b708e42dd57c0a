// Block sum of 64-bit values in two levels: __shfl_down_sync within each of the 3 warps, lane 0 of each warp
// stores its warp's sum into shared memory, __syncthreads(), then warp 0 shuffles the three warp sums together
// (the bug without that barrier is reduce-shfl-warp-sums-no-sync.cu).
//
// ptxmm-launch: --grid 2 --block 96 --arg in=int64[192]=1,2,3,4,5,6,7,8,9,10 --arg out=int64[2] --assert 'out[0]==151 && out[1]==96'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: each 64-bit __shfl_down_sync is two shfl.sync.down.b32,
// st.shared.u64 [S], `bar.sync 0` [B], ld.shared.u64 [L]):
// * [S] by lanes 0, 32, 64 (distinct ws slots) is ordered before warp 0's [L] by [B] (sw_bar, §2.8): no race.
//   Shuffles exchange registers, not memory.
// * Values: in[k] + 1 summed per block: block 0 = 55 + 96 = 151, block 1 = 96; warp 0 lanes 0..2 read the
//   three sums after [B] (§3.6), lanes 3..31 contribute 0.
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
  __syncthreads();              // [B]
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
