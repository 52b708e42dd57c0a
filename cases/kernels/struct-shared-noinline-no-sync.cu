// struct-shared-noinline-neighbour.cu without the barrier: thread t reads cell t+1's three fields while thread
// t+1 may still be inside fill() writing them.
//
// ptxmm-launch: --grid 1 --block 32 --arg out=int32[32]
// ptxmm-expect: race 26 37 no-synchronisation
// ptxmm-expect: race 27 37 no-synchronisation
// ptxmm-expect: race 28 37 no-synchronisation
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: the .func `fill` stores st.u32 / st.u16 / st.u8 on
// lines [FK] [FT] [FL] (its own lines: a real call, not inlined, so no inlined_at); [R] loads the same three
// fields of the neighbour with the same sizes; no bar.sync):
// * Each field of cells[t+1] is written by thread t+1 and read by thread t with the same size and address:
//   weak, conflicting, unordered: three races, one per field (§2.4). Lanes of one warp are not ordered by the
//   model. No assertion: an early read returns shared memory's undefined initial value.
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
  // missing: __syncthreads() before reading the neighbour's cell
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
