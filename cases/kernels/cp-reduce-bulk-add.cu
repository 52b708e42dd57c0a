// Bulk reduction into global memory (cp.reduce.async.bulk, the split-K / FA3 partial-sum epilogue shape): each
// of two blocks writes a partial tile into shared memory, fences it for the async proxy, and one thread adds
// the tile element-wise into the same global row with cp.reduce.async.bulk .add, then waits for the bulk group.
// The kernel also carries the programmatic-dependent-launch hooks (griddepcontrol.wait / launch_dependents),
// which order nothing inside one kernel. The fixed sibling of cp-reduce-bulk-read-early.cu.
//
// ptxmm-launch: --grid 2 --block 32 --arg out=uint32[32] --arg res=uint32[1] --assert 'out[0]==3 && out[1]==6 && out[31]==96'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: griddepcontrol.wait; st.shared.u32;
// fence.proxy.async.shared::cta; bar.sync 0; cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [g], [s],
// 128; cp.async.bulk.commit_group; cp.async.bulk.wait_group 0; griddepcontrol.launch_dependents):
// * [W] (line 34) writes the partial tile (generic); the reduction [RD] (line 38) reads it in the async proxy. [W] po
//   [PF] (line 35, fence.proxy.async.shared::cta) po [B] (line 36, bar.sync 0) sw thread 0's [B], and [RD] is issued
//   after it: proxy-preserved with the async proxy fence in the copy's CTA (§2.10 C4, reading A1): no race.
// * Each element of [RD] is combined into out[i] by a .relaxed.gpu atomic RMW of the async proxy (§4.7). The
//   two blocks' reductions of one element are strong, .gpu-scoped, same proxy and same address: morally
//   strong (§2.3), so they do not race and are linearized (atomicity, §3.3): out[i] = 1*(i+1) + 2*(i+1).
// * griddepcontrol has no memory effect within the launch (it only lets a dependent grid start early); the
//   buffer res is not touched.
// * Values: out[0] = 3, out[1] = 6, out[31] = 96.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void reduce_tiles(unsigned* out, unsigned* res) {
  __shared__ alignas(128) unsigned part[32];
  const unsigned t = threadIdx.x, b = blockIdx.x;
  asm volatile("griddepcontrol.wait;" ::: "memory");  // PDL: the previous grid's writes (none here)
  part[t] = (b + 1) * (t + 1);                                   // [W]
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // [PF]
  __syncthreads();                                               // [B]
  if (t == 0) {
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 128;" ::"l"(out), "r"(smem_addr(part)) : "memory");  // [RD]
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // [WG]
  }
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

int main() {
  unsigned* out = device_buffer<unsigned>(32);
  unsigned* res = device_buffer<unsigned>(1);
  reduce_tiles<<<2, 32>>>(out, res);
  finish();
  print("out", out, 32, {0, 1, 31});
  return 0;
}
