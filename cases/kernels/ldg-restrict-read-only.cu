// Read-only inputs through `const int* __restrict__` and __ldg (ld.global.nc, the non-coherent texture path):
// legal because no thread of the launch writes them. A 2-D grid of 2x2 CTAs of 8x4 threads (four CTAs) computes
// out = a * x + y with a 64-bit scalar a.
//
// ptxmm-launch: --grid 2,2 --block 8,4 --arg x=int32[128]=1,2,3,4 --arg y=int32[128]=10,20,30,40,50 --arg out=int64[128] --arg a=5000000000 --assert 'out[0]==5000000010 && out[1]==10000000020 && out[3]==20000000040 && out[4]==50 && out[127]==0'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [X] ld.global.nc.s32 (__ldg), [Y] ld.global.nc.u32
// (const __restrict__), mul.lo.s64, [O] st.global.u64):
// * ld.global.nc is only defined for memory that is read-only during the kernel (§4.11): x and y are never
//   written by any thread of the launch, so the loads read their initial values (§3.6 with no write to them).
// * Thread g = 32 * (2 * ctaid.y + ctaid.x) + 8 * tid.y + tid.x writes out[g] once ([O], line 25); x and y are
//   only read ([X], line 23; [Y], line 24): no conflicting pair, race-free (§2.4).
// * Values: out[g] = 5000000000 * x[g] + y[g] (64-bit): out[0] = 5000000010, out[1] = 10000000020, out[3] =
//   20000000040, out[4] = 50, out[127] = 0.
#include "host.cuh"

__global__ void axpy(const int* __restrict__ x, const int* __restrict__ y, long long* out, long long a) {
  const int cta = blockIdx.y * gridDim.x + blockIdx.x;
  const int g = cta * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  const int xv = __ldg(&x[g]);  // [X]
  const int yv = y[g];          // [Y]
  out[g] = a * xv + yv;         // [O]
}

int main() {
  int* x = device_buffer<int>(128, {1, 2, 3, 4});
  int* y = device_buffer<int>(128, {10, 20, 30, 40, 50});
  long long* out = device_buffer<long long>(128);
  axpy<<<dim3(2, 2), dim3(8, 4)>>>(x, y, out, 5000000000LL);
  finish();
  print("out", out, 128, {0, 1, 3, 4, 127});
  return 0;
}
