// The fix of the divergent __syncthreads(): the barrier moved out of the branch (seed 003, fixed_kernel).
//
// ptxmm-launch: --grid 1 --block 256 --arg data=int32[256]=3 --arg out=int32[128] --arg n=256 --assert 'out[0]==131 && out[1]==130 && out[127]==382'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md):
// * Every thread reaches [B] (line 24, `bar.sync 0`, §5.2), so the barrier completes (§4.4) and no thread
//   waits forever.
// * [W] (line 22) stores s[tid]; [R] (line 27) reads s[tid + 128], stored by thread tid + 128 before [B]:
//   [W] po bar sw bar po [R] (§2.8 rule 2) is base causality, generic and same address, so causality order
//   (§2.10 C1, §2.11): no race, and [R] reads that store (§3.6). [R] also reads and writes s[tid], the
//   thread's own slot (program order). out[tid] is written once.
// * Values: s[t] = data[t] + t with data = {3, 0, ...}: out[0] = 3 + 0 + 0 + 128 = 131, out[1] = 1 + 129 = 130,
//   out[127] = 127 + 255 = 382.
#include "host.cuh"

__global__ void fixed_kernel(const int* data, int* out, int n) {
  int tid = threadIdx.x;
  __shared__ int s[256];
  s[tid] = data[tid] + tid;  // [W] (the seed copies data[tid]; + tid makes every slot distinct)

  __syncthreads();  // [B] all threads hit this

  if (tid < 128) {
    s[tid] += s[tid + 128];  // [R]
    out[tid] = s[tid];
  }
}

int main() {
  int* data = device_buffer<int>(256, {3});
  int* out = device_buffer<int>(128);
  fixed_kernel<<<1, 256>>>(data, out, 256);
  finish();
  print("out", out, 128, {0, 1, 127});
  return 0;
}
