// Epilogue bulk store of a shared tile without fence.proxy.async: __syncthreads() orders the generic stores
// for the generic proxy only, and the bulk copy reads shared memory in the async proxy (the fix is
// bulk-store-proxy-fence.cu).
//
// ptxmm-launch: --grid 1 --block 64 --arg out=int32[64] --assert 'out[0]==1 && out[1]==4 && out[63]==190'
// ptxmm-expect: race 27 30 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in bulk-store-proxy-fence.cu without the
// fence.proxy.async.shared::cta):
// * [W] (line 27, generic st.shared) is in base causality before the copy's async read [S] (line 30) — bar.sync
//   and issue order — but a generic write and an async-proxy access are connected in proxy-preserved
//   causality only through a proxy fence of the async proxy in the async access's CTA on the path (§2.10
//   C4, reading A1), and there is none: not in causality order. Different proxies: a race, kind
//   different-proxies (litmus MB8/PX8, §7.8-7.9).
// * The copy may read shared memory's initial contents, so out[1] == 4 is not guaranteed (§3.6).
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void bulk_store(int* out) {
  __shared__ alignas(128) int tile[64];
  const int t = threadIdx.x;
  tile[t] = 3 * t + 1;  // [W]
  __syncthreads();      // missing before it: fence.proxy.async.shared::cta
  if (t == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, sizeof(tile));  // [S]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

int main() {
  int* out = device_buffer<int>(64);
  bulk_store<<<1, 64>>>(out);
  finish();
  print("out", out, 64, {0, 1, 63});
  return 0;
}
