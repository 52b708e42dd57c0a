// An 8x8 tile of 16-bit elements staged in shared memory by warp 1 (one 32-bit word per thread), then loaded
// by warp 0 with ldmatrix — but only after __syncwarp(), which orders the lanes of one warp, not the warp that
// wrote the tile (the fix is ldmatrix-tile-syncthreads.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=uint32[32]=10,11,12,13,14,15 --arg out=uint32[32] --assert 'out[0]==10 && out[5]==15 && out[31]==0'
// ptxmm-expect: race 27 32 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u32; st.shared.u32 [W]; bar.warp.sync -1;
// ldmatrix.sync.aligned.m8n8.x1.shared.b16 {r}, [a] [L]; st.global.u32):
// * [W] (line 27): thread 32 + i stores in[i] at word i of the tile: a weak st.shared of 4 bytes.
// * [L] (line 32): ldmatrix is a warp collective: lane r gives the address of row r (16 bytes) and lane t
//   receives the word at byte 4(t%4) of row t/4 (PTX ISA, ldmatrix .m8n8 .b16 fragment). ptxmm models it as
//   lane t's weak 4-byte ld.shared of exactly that word: here word 4(t/4) + t%4 = t of the tile.
// * __syncwarp() (bar.warp.sync -1, line 28) synchronises the lanes of the executing warp only (§4.5): no
//   barrier, fence or release/acquire pair connects thread 37's store [W] with lane 5's read [L], so they are
//   unordered, weak and of different threads: a race, no-synchronisation (§2.4).
// * The read may then take the tile's initial contents instead of in[5] (§3.6): out[5] == 15 can fail.
#include "host.cuh"

#include <cstdint>

__global__ void stage_and_load(const uint32_t* in, uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[8 * 8];
  const int t = threadIdx.x;
  if (t >= 32) reinterpret_cast<uint32_t*>(tile)[t - 32] = in[t - 32];  // [W]
  __syncwarp();  // bug: warp 1 wrote the tile
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
