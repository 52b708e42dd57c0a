// Byte and 16-bit views of one shared buffer: every thread stores its byte, __syncthreads(), odd threads overwrite
// byte pairs with one 16-bit store each (a neighbour's byte and their own), __syncthreads(), then the buffer is
// read back both ways (the fix; the mixed-size race without the first barrier is bytes-short-overlap-race.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg in=int16[64]=0,258,0,-1 --arg bytes=uint8[64] --arg halves=int16[32] --assert 'bytes[0]==2 && bytes[1]==1 && bytes[2]==255 && bytes[3]==255 && bytes[4]==0 && bytes[63]==0 && halves[0]==258 && halves[1]==-1 && halves[2]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [B] st.shared.u8, bar.sync 0, [H] st.shared.u16 by odd
// threads, bar.sync 0, [RB] ld.shared.u8, [RH] ld.shared.u16 by t < 32, st.global.u8 / st.global.u16):
// * [B] (line 25) of thread t writes byte t; [H] (line 27) of odd thread t writes bytes t-1 and t: it overlaps thread
//   t-1's [B] only partially (a mixed-size pair, §2.4) and its own [B] (po). The first `bar.sync 0` (line 26),
//   executed by all 64 threads (§4.4), orders every [B] before every [H] (arrive sw wait, §2.8 rule 2; causality
//   §2.10 C1), so the partial overlap is ordered: no race, mixed-size or other. The second (line 28) orders every
//   store before the reads [RB] (line 29, byte t) and [RH] (line 30, halfword t): race-free.
// * Values (§3.6; little-endian byte order of the 16-bit stores): halfword k comes from in[2k+1]: in[1] = 258 =
//   0x0102 gives bytes 2,1; in[3] = -1 gives 255,255; every other odd in is 0, so every other byte is 0 (the
//   [B] values t+1 are all overwritten). halves = 258, -1, 0, ...
#include "host.cuh"

__global__ void views(const short* in, unsigned char* bytes, short* halves) {
  __shared__ __align__(2) unsigned char buf[64];
  const int t = threadIdx.x;
  buf[t] = static_cast<unsigned char>(t + 1);  // [B]
  __syncthreads();                             // [S1]
  if (t & 1) reinterpret_cast<short*>(buf)[t / 2] = in[t];  // [H]
  __syncthreads();                                          // [S2]
  bytes[t] = buf[t];                                        // [RB]
  if (t < 32) halves[t] = reinterpret_cast<short*>(buf)[t];  // [RH]
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
