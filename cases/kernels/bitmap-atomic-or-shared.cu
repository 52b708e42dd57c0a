// A block-wide bitmap in shared memory: threads 0..3 clear it, __syncthreads(), every thread sets the bit of its
// value with atomicOr and clears bit 0 of its word with atomicAnd, __syncthreads(), threads 0..3 copy the words
// out (the fix; the bug is bitmap-atomic-or-no-syncthreads.cu). One CTA of 128 threads as a 2-D 16x8 block.
//
// ptxmm-launch: --grid 1 --block 16,8 --arg in=int32[128]=0,1,5,33,64,65,127,5,96,31 --arg out=uint32[4] --assert 'out[0]==2147483682 && out[1]==2 && out[2]==2 && out[3]==2147483648'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [Z] st.shared.u32 by t < 4, bar.sync 0, [OR]
// atom.shared.or.b32, [AND] atom.shared.and.b32 (relaxed, .gpu scope by default, §5.1), bar.sync 0, [C] ld.shared.u32
// by t < 4, st.global.u32):
// * t = x + 16y. [Z] (line 29) stores words[t] for t < 4; the RMWs ([OR], line 32; [AND], line 33) of all 128 threads
//   follow the first `bar.sync 0` (line 30), the reads [C] (line 35) the second (line 34); both barriers are executed by
//   all threads (§4.4): every [Z]/[OR]/[AND] pair and every RMW/[C] pair is ordered by arrive sw wait, causality
//   (§2.10 C1). The RMWs among themselves are strong with a scope containing the CTA: morally strong (§2.3). So
//   race-free.
// * Values: the RMWs are linearized per word (§3.3) and OR/AND of fixed bits commute, so each word ends as the
//   union of its bits minus bit 0 (every thread clears bit 0 of its own word, after its own OR in po, so the OR
//   of value 0/32/64/96 is cleared whatever the order). Values 0,1,5,33,64,65,127,5,96,31, then 118 zeros (value
//   0, word 0): word 0 has bits 1,5,31 -> 0x80000022 = 2147483682; word 1 bit 1 (33) -> 2; word 2 bits 0,1 minus 0
//   -> 2; word 3 bits 31 (127) and 0 (96) minus 0 -> 0x80000000 = 2147483648. [C] reads these final values
//   (every RMW precedes it in causality order, §3.6).
#include "host.cuh"

__global__ void bitmap(const int* in, unsigned* out) {
  __shared__ unsigned words[4];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 4) words[t] = 0;  // [Z]
  __syncthreads();          // [B1]
  const int v = in[t];
  atomicOr(&words[v / 32], 1u << (v % 32));  // [OR]
  atomicAnd(&words[v / 32], ~1u);            // [AND] bit 0 of every word is reserved
  __syncthreads();                           // [B2]
  if (t < 4) out[t] = words[t];  // [C]
}

int main() {
  int* in = device_buffer<int>(128, {0, 1, 5, 33, 64, 65, 127, 5, 96, 31});
  unsigned* out = device_buffer<unsigned>(4);
  bitmap<<<1, dim3(16, 8)>>>(in, out);
  finish();
  print("out", out, 4, {0, 1, 2, 3});
  return 0;
}
