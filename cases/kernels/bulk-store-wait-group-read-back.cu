// A block stages a row in shared memory, thread 0 bulk-stores it to global memory, waits for the bulk group with
// cp.async.bulk.wait_group 0 (not .read) and then reads the stored row back from global memory to check it
// (a split-K / stream-K "write then re-read my partial" shape). The fixed sibling of
// bulk-store-wait-read-only-read-back.cu.
//
// ptxmm-launch: --grid 1 --block 32 --arg out=int32[32] --arg check=int32[2] --assert 'check[0]==7 && check[1]==100'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared.u32; fence.proxy.async.shared::cta;
// bar.sync 0; cp.async.bulk.global.shared::cta.bulk_group [g], [s], 128; cp.async.bulk.commit_group;
// cp.async.bulk.wait_group 0; ld.global.u32; st.global.u32):
// * [W] (line 29) -> [PF] (line 30) -> bar.sync -> the copy [S] (line 33): proxy-preserved (§2.10 C4), the copy reads the row.
// * [WG] (line 35, wait_group 0 without .read): the committed group has completed — read its source and written its
//   destination, the writes visible to the executing thread (§4.7) — and completion is followed by the implicit
//   async->generic proxy fence (§2.10). Thread 0's loads [R] (line 36) of out[0] and out[31] are po-after it: the
//   copy's writes are in causality order before them (C3): no race, and [R] reads the copied values.
// * Values: out[i] = 7 + 3i: check[0] = out[0] = 7, check[1] = out[31] = 100.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void store_and_check(int* out, int* check) {
  __shared__ alignas(128) int row[32];
  const int t = threadIdx.x;
  row[t] = 7 + 3 * t;                                            // [W]
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // [PF]
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 128;" ::"l"(out), "r"(smem_addr(row)) : "memory");  // [S]
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // [WG]
    const int first = out[0], last = out[31];  // [R]
    check[0] = first;
    check[1] = last;
  }
}

int main() {
  int* out = device_buffer<int>(32);
  int* check = device_buffer<int>(2);
  store_and_check<<<1, 32>>>(out, check);
  finish();
  print("check", check, 2, {0, 1});
  return 0;
}
