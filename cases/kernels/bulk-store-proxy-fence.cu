// Epilogue store of a shared tile to global memory with a bulk (TMA-engine) copy: every thread writes its
// element with a generic store, fences the async proxy, __syncthreads(), and thread 0 issues
// cp.async.bulk.global.shared::cta (the CUDA programming guide's 1-D TMA store; seed 004 §2.2.1 uses the
// tensor form). The fixed sibling of bulk-store-no-proxy-fence.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --assert 'out[0]==1 && out[1]==4 && out[63]==190'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: st.shared; fence.proxy.async.shared::cta; bar.sync 0;
// cp.async.bulk.global.shared::cta.bulk_group; cp.async.bulk.commit_group; cp.async.bulk.wait_group.read 0):
// * [W] (line 29) writes tile[t] in the generic proxy; the copy [S] (line 33) reads all of tile in the async
//   proxy (weak, §4.7): conflicts across proxies.
// * [W] po [PF] (line 30, fence.proxy.async.shared::cta, thread t) po bar.sync sw bar.sync (thread 0) po the
//   copy's issue, and the copy's read is issue-ordered after it (§2.9 iss). The proxy fence is in the CTA of
//   the async access and covers shared memory, so the path is proxy-preserved (§2.10 C4, reading A1):
//   causality order, no race, and the copy reads 3t + 1 (litmus MB9/PX9).
// * The copy's async writes of out[] are the only writes of out; they are complete when the kernel ends.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void bulk_store(int* out) {
  __shared__ alignas(128) int tile[64];
  const int t = threadIdx.x;
  tile[t] = 3 * t + 1;                        // [W]
  ptx::fence_proxy_async(ptx::space_shared);  // [PF] make this thread's writes visible to the async proxy
  __syncthreads();
  if (t == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, sizeof(tile));  // [S]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());  // tile may be reused after this
  }
}

int main() {
  int* out = device_buffer<int>(64);
  bulk_store<<<1, 64>>>(out);
  finish();
  print("out", out, 64, {0, 1, 63});
  return 0;
}
