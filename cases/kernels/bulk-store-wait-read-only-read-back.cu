// The store-then-check kernel of bulk-store-wait-group-read-back.cu waiting with cp.async.bulk.wait_group.read 0:
// .read only waits until the copy has read its shared source (the buffer may be reused), not until it has
// written global memory, so thread 0's read-back of the destination races with the copy.
//
// ptxmm-launch: --grid 1 --block 32 --arg out=int32[32] --arg check=int32[2] --assert 'check[0]==7 && check[1]==100'
// ptxmm-expect: race 30 33 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in bulk-store-wait-group-read-back.cu with
// cp.async.bulk.wait_group.read 0):
// * With .read, the retired group's reads (tensor map, source) are done; nothing is said about its writes
//   (§4.7): the copy's async-proxy writes of out[] are not ordered before anything of thread 0. Its generic loads
//   [R] (line 33) of out[0] and out[31] conflict with the copy [S] (line 30): weak, different proxies, not in causality
//   order — a race, kind different-proxies, the copy's own thread on both ends.
// * [R] may read the initial 0 (§3.6): check[0] == 7 is not guaranteed.
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
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // [WG] bug: .read waits for the reads only
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
