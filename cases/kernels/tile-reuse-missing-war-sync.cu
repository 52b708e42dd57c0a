// A loop that stages one shared tile per iteration and reads a neighbour's element of it, with the second
// __syncthreads() (write after read: the next iteration's store must not overwrite an element another thread has
// not read yet) left out — the everyday tiled-loop bug (the fix is tile-reuse-two-syncthreads.cu).
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[192]=1,2,3 --arg out=int32[128] --assert 'out[0]==0 && out[61]==3 && out[63]==1'
// ptxmm-expect: race 27 29 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: three unrolled iterations of [W] st.shared.u32,
// bar.sync 0, [R] ld.shared.u32; [O] st.global.u32):
// * In iteration k thread t stores tile[t] ([W], line 27) and reads tile[63 - t] ([R], line 29). The `bar.sync 0`
//   (line 28) orders [W] of iteration k before [R] of iteration k (§4.4, §2.8 rule 2). But [R] of thread 63 - t in
//   iteration k and [W] of thread t in iteration k + 1 are both after barrier instance k and before instance k + 1:
//   nothing orders them, both weak: a data race, no-synchronisation (§2.4), lines 27 and 29.
// * Thread 63's read of tile[0] in iteration 0 may therefore return thread 0's iteration-1 store in[64] = 0 instead
//   of in[0] = 1 (thread 0 can store it before thread 63 reads; §3.6 does not forbid reading it). It cannot read
//   the iteration-2 store: thread 0 stores that only after barrier instance 1, which thread 63 reaches after its
//   read. So out[63] is 1 or 0, and the assertion (out[63] == 1) can fail.
#include "host.cuh"

__global__ void staged_sum(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  int acc = 0;
  for (int k = 0; k < 3; ++k) {
    tile[t] = in[k * 64 + t];  // [W]
    __syncthreads();           // the tile is complete
    acc += tile[63 - t];       // [R] another thread's element
    // bug: no __syncthreads() here: the next iteration overwrites tile[t] while thread 63 - t may still read it
  }
  out[blockIdx.x * 64 + t] = acc;  // [O]
}

int main() {
  int* in = device_buffer<int>(192, {1, 2, 3});
  int* out = device_buffer<int>(128);
  staged_sum<<<2, 64>>>(in, out);
  finish();
  print("out", out, 128, {0, 61, 63});
  return 0;
}
