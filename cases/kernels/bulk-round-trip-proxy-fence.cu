// In-place tile update between two bulk copies: a bulk load (global -> shared, mbarrier complete_tx), every
// thread reads and rewrites its element with generic loads and stores after its wait (no proxy fence needed on
// that side: the completion carries it), then fence.proxy.async.shared::cta, __syncthreads() and one thread's
// bulk store back to global (bulk_group, wait_group 0). The fixed sibling of bulk-round-trip-fence-too-early.cu.
//
// ptxmm-launch: --grid 1 --block 32 --arg in=int32[32]=5,6,7 --arg out=int32[32] --assert 'out[0]==15 && out[1]==16 && out[2]==17 && out[31]==10'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared.b64 [..], 1; bar.sync 0;
// mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ..., 128;
// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes; mbarrier.try_wait.parity.shared::cta.b64;
// ld.shared/st.shared; fence.proxy.async.shared::cta; cp.async.bulk.global.shared::cta.bulk_group;
// cp.async.bulk.commit_group; cp.async.bulk.wait_group 0):
// * Load side: [L] (line 40) writes tile in the async proxy; its complete_tx follows the implicit async-to-generic
//   proxy fence (§4.7) and a true [T] (line 42) observes it: [L]'s writes are in proxy-preserved causality order
//   before [U]'s generic read and write (line 44) — no race, no fence needed (the completion carries it, MB7).
// * Store side: [U] (generic write) po the proxy fence [F] (line 45, in the issuing CTA, A1) po bar.sync [S]
//   (line 46) sw thread 0's bar.sync po issue of [B] (line 48), whose async reads follow by iss: §2.10 C4, no race
//   between [U] and [B] (MB9).
// * [B] writes out in the async proxy; bulk wait_group 0 ([G], line 50) retires its group, after which the
//   kernel ends: the final value of out is the copy's.
// * Values: out[t] = in[t] + 10: 15, 16, 17, and 10 for t >= 3.
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
  tile[t] = tile[t] + 10;  // [U]
  ptx::fence_proxy_async(ptx::space_shared);  // [F] this thread's store, for the bulk store's async reads
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
