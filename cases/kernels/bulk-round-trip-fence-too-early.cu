// Bug: the in-place tile update of bulk-round-trip-proxy-fence.cu with fence.proxy.async issued right after the
// wait, before the generic stores it is meant to order (the fence "moved up" next to the load's wait): the
// stores reach the bulk store only through the generic proxy.
//
// ptxmm-launch: --grid 1 --block 32 --arg in=int32[32]=5,6,7 --arg out=int32[32] --assert 'out[0]==15 && out[1]==16 && out[2]==17 && out[31]==10'
// ptxmm-expect: race 39 42 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: as in the fixed sibling, fence.proxy.async.shared::cta
// before the ld.shared/st.shared of the update):
// * [U] (line 39, generic store) po bar.sync [S] (line 40) sw thread 0's bar.sync po [B] (line 42, async reads
//   by iss): base causality, but no proxy fence lies between [U] and [B] on any path — [F] (line 38) is po
//   BEFORE [U] — so it is not proxy-preserved (§2.10: C4 needs the fence after the generic access; MB8): the
//   store and the async read race, kind different-proxies. (A thread's [U] of its own element with thread 0's
//   [F]: thread 0's fence is po before its own [U] too.)
// * The load side ([L] line 34, [T] line 36) is as in the fixed sibling: no race between [L] and [U].
// * Assertion: the bulk store may read the loaded value (5) instead of 15: out[0]==15 can fail.
#include "host.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void round_trip(const int* in, int* out) {
  __shared__ alignas(128) int tile[32];
  __shared__ uint64_t bar;
  constexpr uint32_t bytes = sizeof(tile);
  const int t = threadIdx.x;
  if (t == 0) ptx::mbarrier_init(&bar, 1);
  __syncthreads();
  if (t == 0) {
    (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in, bytes, &bar);  // [L]
  }
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {  // [T]
  }
  ptx::fence_proxy_async(ptx::space_shared);  // [F] BUG: before the store it should cover
  tile[t] = tile[t] + 10;  // [U]
  __syncthreads();  // [S]
  if (t == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out, tile, bytes);  // [B]
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());  // [G]
  }
}

int main() {
  int* in = device_buffer<int>(32, {5, 6, 7});
  int* out = device_buffer<int>(32);
  round_trip<<<1, 32>>>(in, out);
  finish();
  print("out", out, 32, {0, 1, 2, 31});
  return 0;
}
