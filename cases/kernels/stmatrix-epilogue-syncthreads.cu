// A GEMM epilogue in the sm90 style: each warp stores its 8x8 fragment of 16-bit results to a shared tile with
// stmatrix, then the CTA copies the tile out to global memory, each thread one 32-bit word — here the word
// the other warp stored. __syncthreads() between the two (the buggy sibling, stmatrix-epilogue-syncwarp-only.cu,
// has only __syncwarp()).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=uint32[64]=7,8 --arg out=uint32[64] --assert 'out[63]==7 && out[62]==8 && out[0]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: ld.global.u32; stmatrix.sync.aligned.m8n8.x1.shared.b16
// [a], {r} [S]; bar.sync 0; ld.shared.u32 [R]; st.global.u32):
// * [S] (line 29): stmatrix is a warp collective: lane r gives the address of row r (16 bytes) and lane t's
//   register holds the word at byte 4(t%4) of row t/4 (PTX ISA, stmatrix .m8n8 .b16 fragment). ptxmm models
//   it as lane t's weak 4-byte st.shared of that word: warp w's lane l writes word 32w + l of the tile.
// * [R] (line 31): thread t reads word 63 - t, which thread 63 - t of the other warp wrote.
// * bar.sync 0 (__syncthreads, line 30) orders every stmatrix store before every read [R] (§4.4): race-free.
// * Thread 63 reads word 0, stored by thread 0 with in[0] = 7, the only write to it: out[63] == 7 in every
//   execution; out[62] == in[1] == 8; out[0] == in[63] == 0.
#include "host.cuh"

#include <cstdint>

__global__ void epilogue(const uint32_t* in, uint32_t* out) {
  __shared__ __align__(128) uint16_t tile[2 * 8 * 8];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const uint32_t frag = in[t];  // the warp's results, as mma.sync leaves them (two halves per register)
  const uint32_t row = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[warp * 64 + (lane % 8) * 8]));
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(row), "r"(frag) : "memory");  // [S]
  __syncthreads();
  out[t] = reinterpret_cast<const uint32_t*>(tile)[63 - t];  // [R]
}

int main() {
  uint32_t* in = device_buffer<uint32_t>(64, {7, 8});
  uint32_t* out = device_buffer<uint32_t>(64);
  epilogue<<<1, 64>>>(in, out);
  finish();
  print("out", out, 64, {0, 62, 63});
  return 0;
}
