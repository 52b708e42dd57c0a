// The bulk reduction of cp-reduce-bulk-add.cu with block 0's thread 0 reading the reduced global row right after
// its own cp.async.bulk.wait_group 0: the wait covers its own block's reduction only, not the other block's
// (the "last block reads the split-K sum" bug without a completion counter).
//
// ptxmm-launch: --grid 2 --block 32 --arg out=uint32[32] --arg res=uint32[1] --assert 'out[0]==3 && out[31]==96' --assert 'res[0]==3' --observe 'res[0]'
// ptxmm-expect: race 39 36 different-proxies
// ptxmm-expect: assert holds
// ptxmm-expect: assert fails
// ptxmm-expect: observe res[0] 1,3
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in cp-reduce-bulk-add.cu plus ld.global.u32 / st.global.u32
// of [R]):
// * [R] (line 39, block 0 thread 0, generic weak load of out[0]) and block 1's reduction [RD] (line 36, an async-proxy
//   .relaxed.gpu RMW of out[0], §4.7) conflict. Block 1's bulk group completes for block 1's thread 0 only
//   (wait_group makes the writes visible to the executing thread, §4.7), and nothing orders it before [R]:
//   not in causality order, not morally strong (one weak, different proxies): a race, kind different-proxies.
// * Block 0's own reduction of out[0] is complete and visible to [R] after its [WG] (line 38, wait_group 0 with the
//   implicit async->generic proxy fence at completion, §2.10): [R] cannot read a value coherence-before it.
//   The two RMWs are linearized (ms): 0 -> 1 -> 3 or 0 -> 2 -> 3. In the first order [R] reads 1 or 3, in
//   the second only 3: res[0] is 1 or 3, so 'res[0]==3' fails; out[] itself still ends at 3(i+1).
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
    if (b == 0) res[0] = out[0];  // [R] bug: the other block's reduction is not waited for
  }
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

int main() {
  unsigned* out = device_buffer<unsigned>(32);
  unsigned* res = device_buffer<unsigned>(1);
  reduce_tiles<<<2, 32>>>(out, res);
  finish();
  print("out", out, 32, {0, 1, 31});
  print("res", res, 1, {0});
  return 0;
}
