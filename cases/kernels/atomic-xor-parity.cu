// Bit parity and presence with atomicXor / atomicOr: 2 CTAs of 128 threads each toggle, in one word, the bit of
// their input value (mod 32) and set it in another word. A value seen an odd number of times leaves its bit set in
// the parity word, whatever order the RMWs take.
//
// ptxmm-launch: --grid 2 --block 128 --arg in=int32[256]=3,3,5,31,35 --arg parity=uint32[1] --arg seen=uint32[1] --assert 'parity[0]==2147483689 && seen[0]==2147483689' --observe 'parity[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe parity[0] 2147483689
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [L] ld.global.u32 of in, [X] atom.global.xor.b32,
// [O] atom.global.or.b32, both .relaxed.gpu by default, §5.1; results unused):
// * parity and seen are accessed only by the RMWs [X] (line 23) and [O] (line 24) of all 256 threads: strong, .gpu
//   scope containing every thread, so every pair is morally strong (§2.3): race-free (§2.4). `in` is only read.
// * Atomicity (§3.3): the RMWs of one word are totally ordered by coherence, each reading its predecessor; xor of
//   fixed bits commutes, as does or, so every order gives the same word. Inputs 3, 3, 5, 31, 35 and 251 zeros:
//   bit 0 is toggled 251 times (odd: set), bit 3 three times (3, 3 and 35 mod 32 = 3: set), bit 5 once, bit 31
//   once: parity = 1 + 8 + 32 + 2^31 = 2147483689; seen has the same four bits: 2147483689.
#include "host.cuh"

__global__ void parity_bits(const int* in, unsigned* parity, unsigned* seen) {
  const unsigned bit = 1u << (in[blockIdx.x * blockDim.x + threadIdx.x] & 31);  // [L]
  atomicXor(parity, bit);                                                          // [X]
  atomicOr(seen, bit);                                                             // [O]
}

int main() {
  int* in = device_buffer<int>(256, {3, 3, 5, 31, 35});
  unsigned* parity = device_buffer<unsigned>(1);
  unsigned* seen = device_buffer<unsigned>(1);
  parity_bits<<<2, 128>>>(in, parity, seen);
  finish();
  print("parity", parity, 1, {0});
  print("seen", seen, 1, {0});
  return 0;
}
