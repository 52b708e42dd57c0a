// A struct array in shared memory filled through a __noinline__ device function that takes a pointer to the
// thread's own element (int, short and char fields), read by the neighbouring thread after __syncthreads()
// (the bug without the barrier is struct-shared-noinline-no-sync.cu).
//
// ptxmm-launch: --grid 1 --block 32 --arg out=int32[32] --assert 'out[0]==3 && out[2]==2 && out[30]==3 && out[31]==1'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: `fill` is a .func called with a generic pointer
// (cvta.shared), st.u32 / st.u16 / st.u8 through it [FK] [FT] [FL]; `bar.sync 0` [B]; the neighbour's fields are read
// with ld.shared.u32 / .s16 / .u8 [R]):
// * Thread t writes only cells[t]'s three fields (its own 8 bytes; the pad byte is never written); thread t
//   reads cells[(t+1) % 32] after [B]: every store is ordered before every load by sw_bar (§2.8): race-free.
// * Values: cells[t] = {t * 10 % 3, t % 2, 1}, out[t] = the sum of cells[(t+1) % 32]'s fields: out[0] = 1 + 1 + 1
//   = 3, out[2] = 0 + 1 + 1 = 2 (cell 3), out[30] = 1 + 1 + 1 = 3 (cell 31: 310 % 3 = 1), out[31] = 0 + 0 + 1 = 1.
#include "host.cuh"

struct Cell {
  int key;
  short tag;
  char flag;
  char pad;
};

__device__ __noinline__ void fill(Cell* c, int key, short tag) {
  c->key = key;  // [FK]
  c->tag = tag;  // [FT]
  c->flag = 1;   // [FL]
}

__global__ void neighbours(int* out) {
  __shared__ Cell cells[32];
  const int t = threadIdx.x;
  fill(&cells[t], t * 10 % 3, static_cast<short>(t % 2));
  __syncthreads();  // [B]
  const Cell& n = cells[(t + 1) % 32];
  out[t] = n.key + n.tag + n.flag;  // [R]
}

int main() {
  int* out = device_buffer<int>(32);
  neighbours<<<1, 32>>>(out);
  finish();
  print("out", out, 32, {0, 2, 30, 31});
  return 0;
}
