// Byte and 16-bit views of one shared buffer WITHOUT the barrier between the byte stores and the 16-bit stores
// (the bug; the fix is bytes-short-overlap-syncthreads.cu): an odd thread's 16-bit store partially overlaps its
// neighbour's byte store, unordered — a mixed-size data race, after which the model promises nothing.
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int16[64]=0,258,0,-1 --arg bytes=uint8[64] --arg halves=int16[32]
// ptxmm-expect: race 22 24 partial-overlap
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [B] st.shared.u8, [H] st.shared.u16 by odd threads,
// bar.sync 0, [RB] ld.shared.u8, [RH] ld.shared.u16 by t < 32):
// * [H] (line 24) of odd thread t writes bytes t-1 and t; thread t-1's [B] (line 22) writes byte t-1. Nothing orders
//   them (no barrier or other synchronisation before [H], §2.8); they overlap but not completely, so they are not
//   morally strong (§2.3 condition 3): a data race between accesses of different sizes, a mixed-size race (§2.4),
//   reported as partial-overlap. (Thread t's own [B] of byte t is po-before its [H].)
// * The `bar.sync 0` (line 25) orders every store before the reads [RB] and [RH]: no other race. No assertion: with
//   a mixed-size race the axioms say nothing about the values (§2.4).
#include "host.cuh"

__global__ void views(const short* in, unsigned char* bytes, short* halves) {
  __shared__ __align__(2) unsigned char buf[64];
  const int t = threadIdx.x;
  buf[t] = static_cast<unsigned char>(t + 1);  // [B]
  // BUG: no __syncthreads() here: the 16-bit stores below overlap the neighbours' byte stores
  if (t & 1) reinterpret_cast<short*>(buf)[t / 2] = in[t];  // [H]
  __syncthreads();                                          // [S2]
  bytes[t] = buf[t];
  if (t < 32) halves[t] = reinterpret_cast<short*>(buf)[t];
}

int main() {
  short* in = device_buffer<short>(64, {0, 258, 0, -1});
  unsigned char* bytes = device_buffer<unsigned char>(64);
  short* halves = device_buffer<short>(32);
  views<<<1, 64>>>(in, bytes, halves);
  finish();
  print("bytes", bytes, 64, {0, 1, 2, 3, 4, 63});
  print("halves", halves, 32, {0, 1, 2});
  return 0;
}
