// Warp-specialised TMA-store epilogue (CUTLASS sm90 epilogue shape): the consumer warps write an output tile
// into one shared staging buffer, fence it for the async proxy, meet at a named barrier, one elected thread
// stores it with a bulk copy and waits with cp.async.bulk.wait_group.read before the buffer is reused for the
// next tile; the producer warp takes no part (it leaves at once). The fixed sibling of
// tma-store-epilogue-no-wait-read.cu.
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[128] --assert 'out[0]==0 && out[63]==63 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32; fence.proxy.async.shared::cta;
// bar.sync 1, 64; cp.async.bulk.global.shared::cta.bulk_group [g], [s], 256; cp.async.bulk.commit_group;
// cp.async.bulk.wait_group.read 0; the loop over the two tiles unrolled by nvcc):
// * RAW, generic -> async: [W] (line 40) of tile k is po-before [PF] (line 41, fence.proxy.async.shared::cta) and
//   [B1] (line 42, bar.sync 1, 64: all 64 consumer threads take part, the count is in threads, §4.4); thread 32's
//   copy [S] (line 44) is issued po-after its [B1] wait, so its async read of the tile is in bc after every
//   [W] with an async proxy fence of the copy's CTA on the path: proxy-preserved (§2.10 C4, reading A1;
//   litmus PX9). [S] reads tile k.
// * WAR, async -> generic: [WR] (line 46, wait_group.read 0) returns once the reads of the committed group are done:
//   "the source buffer may be reused" (§4.7). [WR] po [B2] (line 48, bar.sync 1, 64), and every thread's next [W]
//   is po-after its [B2] wait: the copy's reads of tile 0 are causally before the writes of tile 1, with the
//   completion of the reads standing for the async->generic side (§4.7: completion of a bulk operation is
//   followed by the implicit generic-async proxy fence, §2.10). No race.
// * The bar.sync instructions are aligned: every consumer thread executes both in every iteration (the
//   elected thread's branch rejoins before [B2]); the producer warp exits and is not counted (count 64).
// * Values: out[64k + c] = 1000k + c: out[0] = 0, out[63] = 63, out[64] = 1000, out[127] = 1063.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void epilogue(int* out) {
  __shared__ alignas(128) int stage[64];
  const int t = threadIdx.x;
  if (t < 32) return;  // the producer warp: its mainloop is elsewhere
  const int c = t - 32;  // consumer thread 0..63 (two warps)
  for (int k = 0; k < 2; ++k) {
    stage[c] = 1000 * k + c;                                       // [W]
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");   // [PF]
    asm volatile("bar.sync 1, 64;" ::: "memory");                  // [B1]
    if (c == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(out + 64 * k), "r"(smem_addr(stage)));  // [S]
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // [WR]
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");  // [B2]
  }
}

int main() {
  int* out = device_buffer<int>(128);
  epilogue<<<1, 96>>>(out);
  finish();
  print("out", out, 128, {0, 63, 64, 127});
  return 0;
}
