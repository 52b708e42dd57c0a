// A Hopper warpgroup GEMM step (the CUTLASS sm90 / FlashAttention-3 "RS" form: A in registers, B in shared
// memory through a matrix descriptor), then the B stage is refilled with the next tile. Bug: the refill [N]
// comes right after wgmma.commit_group, before wgmma.wait_group retired the wgmma that reads the stage (the
// fix is wgmma-stage-reuse-after-wait.cu).
//
// ptxmm-launch: --grid 1 --block 128 --arg in=uint32[128] --arg a=uint32[512] --arg out=float32[512]
// ptxmm-expect: race 47 45 different-proxies
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.v4.u32 [W]; fence.proxy.async.shared::cta;
// bar.sync 0; wgmma.fence.sync.aligned; wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {d}, {a}, desc, 1, 1,
// 1, 0 [M]; wgmma.commit_group.sync.aligned; st.shared.v4.u32 [N]; wgmma.wait_group.sync.aligned 0):
// * [W] (line 37): thread t < 16 writes bytes 16t..16t+15 of sB: four weak generic 4-byte stores.
// * [M] (line 45, where nvcc places the asm): the descriptor (start sB >> 4, LBO 128, SBO 256, no swizzle) names B's two core matrices of
//   8 rows x 16 bytes, at sB and sB + 128: all 256 bytes. Every thread of the warpgroup issues the wgmma and
//   ptxmm lets each read those bytes in the async proxy (§1.4, §4.13), ordered after its wgmma.fence.
// * [W] is ordered before every thread's reads as in wgmma-smem-proxy-fence.cu (proxy fence, bar.sync,
//   wgmma.fence): no race there.
// * [N] (line 47): thread t < 16 overwrites bytes 16t..16t+15 of sB with generic stores. wgmma.mma_async is not
//   ordered with later instructions of its thread: its reads are complete only at a wgmma.wait_group that
//   retires its group (§4.13), and [N] comes before any wait_group in every thread, with no barrier after the
//   wgmma. So the async-proxy reads of every thread (its own included) and the generic writes [N] are
//   unordered and of different proxies: a race, different-proxies (§2.4).
#include "host.cuh"

#include <cstdint>

// A wgmma matrix descriptor: start address, leading and stride byte offsets (>> 4), no swizzle.
__device__ uint64_t descriptor(const void* smem, uint32_t lbo, uint32_t sbo) {
  const uint32_t at = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return uint64_t{(at >> 4) & 0x3fffu} | uint64_t{(lbo >> 4) & 0x3fffu} << 16 | uint64_t{(sbo >> 4) & 0x3fffu} << 32;
}

__global__ void warpgroup_refill(const uint4* in, const uint32_t* a, float* out) {
  __shared__ __align__(128) uint16_t sB[8 * 16];
  const int t = threadIdx.x;
  if (t < 16) reinterpret_cast<uint4*>(sB)[t] = in[t];  // [W]
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t a0 = a[4 * t], a1 = a[4 * t + 1], a2 = a[4 * t + 2], a3 = a[4 * t + 3];
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  const uint64_t b = descriptor(sB, 128, 256);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, 1, 1, 1, 0;"  // [M]
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(b) : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  if (t < 16) reinterpret_cast<uint4*>(sB)[t] = in[16 + t];  // [N] bug: the wgmma may still read sB
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  out[4 * t] = d0, out[4 * t + 1] = d1, out[4 * t + 2] = d2, out[4 * t + 3] = d3;
}

int main() {
  std::vector<uint32_t> ones(512, 0x3c003c00u);  // pairs of half 1.0
  uint4* in = reinterpret_cast<uint4*>(device_buffer<uint32_t>(128, std::vector<uint32_t>(128, 0x3c003c00u)));
  uint32_t* a = device_buffer<uint32_t>(512, ones);
  float* out = device_buffer<float>(512);
  warpgroup_refill<<<1, 128>>>(in, a, out);
  finish();
  print("out", out, 512, {0, 511});  // 16.0 each: k = 16 products of 1.0 * 1.0
  return 0;
}
