// Two-phase kernel with a grid-wide barrier from cooperative groups (seed 003, "Global synchronization ...
// Cooperative groups (CUDA 9+). grid.sync()"): every block reduces its slice and publishes one partial, then
// cg::this_grid().sync(), then block 0 adds the partials. Launched cooperatively (main uses
// cudaLaunchCooperativeKernel).
//
// ptxmm-launch: --grid 4 --block 64 --arg in=int32[256]=-1,-2,5 --arg partial=int32[4] --arg out=int32[1] --assert 'out[0]==254'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: grid.sync() is barrier.sync 0; thread 0 of each
// block does atom.add.release.gpu.u32 on the grid workspace word (block 0 adds 0x80000001 - nblocks, the
// others add 1, so the sum flips bit 31 once all have arrived) and polls it with ld.acquire.gpu.u32 until
// bit 31 differs from the value its own add returned; then barrier.sync 0. The workspace address is
// %envreg1:%envreg2, which a cooperative launch points at a zero-initialised word (a null address traps):
// the reader must model it as such a buffer, with 32-bit wrap-around arithmetic on the sum):
// * [W] (line 39) writes partial[b] in thread 0 of block b; [R] (line 46) reads it in thread 0 of block 0.
// * [W] po the arrive (release RMW, rp1) in block b's thread 0. Block 0's thread 0 leaves the poll only after
//   an ld.acquire.gpu (ap1) that reads the sum with bit 31 flipped, i.e. after every block's add: the adds are
//   ms .gpu RMWs, linearized, so each block's add obs that load (§2.6) and sw it (§2.8 rule 4). Then [R] is
//   po-after the poll: [W] is in causality order before [R] (§2.10 C1). No race. Within a block, shared
//   memory steps are separated by bar.sync as in reduce-block-sum.cu.
// * Values: block 0 counts 62 non-negative inputs, blocks 1-3 count 64: out[0] = 254.
#include "host.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void two_phase_count(const int* in, int* partial, int* out) {
  __shared__ int s[64];
  const int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid] >= 0 ? 1 : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];  // [W]

  cg::this_grid().sync();  // [G] every block's partial before any block goes on

  if (blockIdx.x == 0 && tid == 0) {
    int total = 0;
    for (int b = 0; b < gridDim.x; ++b) {
      total += partial[b];  // [R]
    }
    *out = total;
  }
}

int main() {
  int* in = device_buffer<int>(256, {-1, -2, 5});
  int* partial = device_buffer<int>(4);
  int* out = device_buffer<int>(1);
  void* args[] = {&in, &partial, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(two_phase_count), dim3(4), dim3(64), args));
  finish();
  print("out", out, 1, {0});
  return 0;
}
