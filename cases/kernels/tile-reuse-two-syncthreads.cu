// A loop that stages one shared tile per iteration and reads a neighbour's element of it, with both barriers:
// the first publishes the tile (read after write), the second keeps the next iteration's store from overwriting
// an element another thread has not read yet (write after read). The bug is tile-reuse-missing-war-sync.cu.
//
// ptxmm-launch: --grid 2 --block 64 --arg in=int32[192]=1,2,3 --arg out=int32[128] --assert 'out[0]==0 && out[61]==3 && out[63]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: three unrolled iterations of [W] st.shared.u32,
// bar.sync 0, [R] ld.shared.u32, bar.sync 0; [O] st.global.u32):
// * In iteration k thread t stores tile[t] ([W], line 26) and reads tile[63 - t] ([R], line 28), stored by thread
//   63 - t. [W] of iteration k is ordered before [R] of iteration k by the first `bar.sync 0` (line 27), and [R] of
//   iteration k before [W] of iteration k + 1 by the second (line 29); both are executed by all 64 threads of the
//   CTA (§4.4, §2.8 rule 2, §2.10 C1). Every conflicting pair on tile is ordered: race-free. Each out[] element is
//   written once ([O], line 31), and blocks have their own tiles.
// * So [R] of iteration k reads exactly in[64k + 63 - t] (§3.6): out[t] = in[63 - t] + in[127 - t] + in[191 - t].
//   in is 1,2,3,0,... (every block reads the same in), so out[63] = in[0] = 1, out[61] = in[2] = 3, out[0] = 0.
#include "host.cuh"

__global__ void staged_sum(const int* in, int* out) {
  __shared__ int tile[64];
  const int t = threadIdx.x;
  int acc = 0;
  for (int k = 0; k < 3; ++k) {
    tile[t] = in[k * 64 + t];  // [W]
    __syncthreads();           // the tile is complete
    acc += tile[63 - t];       // [R] another thread's element
    __syncthreads();           // every thread has read it before it is overwritten
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
