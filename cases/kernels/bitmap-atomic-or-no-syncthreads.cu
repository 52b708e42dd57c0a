// A block-wide bitmap in shared memory built with atomicOr / atomicAnd, copied out by threads 0..3 WITHOUT the
// __syncthreads() between the atomics and the copy (the bug; the fix is bitmap-atomic-or-shared.cu): the RMWs of
// other threads are atomic with each other, not with the plain read.
//
// ptxmm-launch: --grid 1 --block 16,8 --arg in=int32[128]=0,1,5,33,64,65,127,5,96,31 --arg out=uint32[4]
// ptxmm-expect: race 26 29 no-synchronisation
// ptxmm-expect: race 27 29 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [Z] st.shared.u32 by t < 4, bar.sync 0, [OR]
// atom.shared.or.b32, [AND] atom.shared.and.b32 (relaxed, .gpu scope by default, §5.1), [C] ld.shared.u32 by t < 4):
// * t = x + 16y. Thread t < 4 reads words[t] ([C], line 29) right after its own RMWs; another thread's [OR] (line
//   26) or [AND] (line 27) on the same word (thread 1 has value 1, word 0, read by thread 0) follows the same
//   `bar.sync 0` (line 24) and nothing orders it against [C] (§2.8): a strong RMW and a weak load are not morally strong
//   (§2.3), so each is a data race (§2.4), kind no-synchronisation (same proxy, one access weak).
// * [Z] (line 23) is ordered before every RMW and every [C] by the barrier, and the RMWs are morally strong with
//   each other: these two line pairs are all the races. No assertion: the copy may miss later bits.
#include "host.cuh"

__global__ void bitmap(const int* in, unsigned* out) {
  __shared__ unsigned words[4];
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t < 4) words[t] = 0;  // [Z]
  __syncthreads();          // [B1]
  const int v = in[t];
  atomicOr(&words[v / 32], 1u << (v % 32));  // [OR]
  atomicAnd(&words[v / 32], ~1u);            // [AND] bit 0 of every word is reserved
  // BUG: no __syncthreads() here: other threads' atomics may still be pending
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
