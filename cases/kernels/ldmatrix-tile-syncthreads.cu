// An 8x8 tile of 16-bit elements staged in shared memory by warp 1 (one 32-bit word per thread), then loaded
// by warp 0 with ldmatrix (the fragment layout mma.sync takes), after __syncthreads(). The buggy sibling,
// ldmatrix-tile-syncwarp-only.cu, has only __syncwarp().
//
// ptxmm-launch: --grid 1 --block 64 --arg in=uint32[32]=10,11,12,13,14,15 --arg out=uint32[32] --assert 'out[0]==10 && out[5]==15 && out[31]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u32; st.shared.u32 [W]; bar.sync 0;
// ldmatrix.sync.aligned.m8n8.x1.shared.b16 {r}, [a] [L]; st.global.u32):
// * [W] (line 27): thread 32 + i stores in[i] at word i of the tile: a weak st.shared of 4 bytes.
// * [L] (line 32): ldmatrix is a warp collective: lane r gives the address of row r (16 bytes) and lane t
//   receives the word at byte 4(t%4) of row t/4 (PTX ISA, ldmatrix .m8n8 .b16 fragment). ptxmm models it as
//   lane t's weak 4-byte ld.shared of exactly that word: here word 4(t/4) + t%4 = t of the tile.
// * bar.sync 0 (__syncthreads, line 28) orders every store of warp 1 before every read of warp 0 (§4.4:
//   barrier synchronisation gives causality order): no conflicting pair is unordered, race-free.
// * Lane 5 reads word 5, written by thread 37 with in[5] = 15, and nothing else writes it: out[5] == 15 in
//   every execution; out[0] == 10 likewise, out[31] == in[31] == 0.
#include "host.cuh"

#include <cstdint>

__global__ void stage_and_load(const uint32_t* in, uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[8 * 8];
  const int t = threadIdx.x;
  if (t >= 32) reinterpret_cast<uint32_t*>(tile)[t - 32] = in[t - 32];  // [W]
  __syncthreads();
  if (t < 32) {
    const uint32_t row = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[(t % 8) * 8]));
    uint32_t frag;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(frag) : "r"(row));  // [L]
    out[t] = frag;
  }
}

int main() {
  std::vector<uint32_t> init = {10, 11, 12, 13, 14, 15};
  uint32_t* in = device_buffer<uint32_t>(32, init);
  uint32_t* out = device_buffer<uint32_t>(32);
  stage_and_load<<<1, 64>>>(in, out);
  finish();
  print("out", out, 32, {0, 5, 31});
  return 0;
}
