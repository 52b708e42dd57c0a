// A two-stage TMA pipeline with tensor maps: a producer thread (thread 32) loads three 4x1 boxes (rows 0..2 of a
// 4x3 int32 tensor) into a ring of two shared-memory stages, each completing on the stage's "full" mbarrier;
// four consumer threads (0..3) wait on "full", read their element of the stage, fence the async proxy and release it on the stage's
// "empty" mbarrier, which the producer waits on before refilling the stage. The fixed sibling of
// tma-tensor-ring-early-release.cu.
//
// ptxmm-launch: --grid 1 --block 64 --arg 'tmap=tensormap(int32,4x3,box=4x1)=1,2,3,4,5,6,7,8,9,10,11,12' --arg out=int32[12] --assert 'out[0]==1 && out[3]==4 && out[4]==5 && out[8]==9 && out[11]==12'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: mbarrier.init.shared::cta.b64 (full: 1, empty: 4),
// mbarrier.try_wait.parity.shared::cta.b64 (default .acquire.cta), mbarrier.arrive.expect_tx.release.cta.shared::cta.b64
// ..., 16, cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes, ld.shared.u32,
// fence.proxy.async.shared::cta, mbarrier.arrive.shared::cta.b64 (default .release.cta)):
// * RAW: round r's copy [L] (line 56) writes stage r % 2 in the async proxy; its complete_tx (after the implicit
//   async-to-generic proxy fence, §4.7, §2.10) completes full[r % 2]'s phase, and each consumer's successful wait
//   [WF] (line 61, acquire) synchronizes with it before its read [R] (line 63): no race, [R] reads round r's row.
// * WAR: round r + 2's [L] overwrites the stage round r's [R] read. Each consumer's [R] po [PF] (line 64,
//   fence.proxy.async.shared::cta) po [A] (line 65, release arrive on empty[r % 2]); the four arrivals complete
//   the phase, the producer's [WE] (line 51, acquire) succeeds only then and synchronizes with them, and [L]
//   is issued after it (§2.9): [R] -> [PF] -> ... -> copy is proxy-preserved with the async proxy fence in the
//   copy's CTA (§2.10 C4). No race, and round r's [R] cannot read round r + 2's row.
// * Values: round r stores row r: out[4r + t] = tensor[4r + t] = 4r + t + 1.
#include "tensormap.cuh"

#include <cuda/ptx>

namespace ptx = cuda::ptx;

constexpr int kStages = 2;
constexpr int kRounds = 3;
constexpr int kConsumers = 4;

__global__ void ring(const __grid_constant__ CUtensorMap tmap, int* out) {
  __shared__ alignas(128) int stage[kStages][32];  // 16 bytes used per stage, 128-byte aligned
  __shared__ uint64_t full[kStages], empty[kStages];
  const int t = threadIdx.x;
  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], kConsumers);
    }
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (t == 32) {  // the producer
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      if (r >= kStages) {
        while (!ptx::mbarrier_try_wait_parity(&empty[s], (r / kStages - 1) & 1)) {  // [WE]
        }
      }
      const int coords[2] = {0, r};
      (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], 16);
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &stage[s], &tmap, coords, &full[s]);  // [L]
    }
  } else if (t < kConsumers) {
    for (int r = 0; r < kRounds; ++r) {
      const int s = r % kStages;
      while (!ptx::mbarrier_try_wait_parity(&full[s], (r / kStages) & 1)) {  // [WF]
      }
      out[4 * r + t] = stage[s][t];  // [R]
      ptx::fence_proxy_async(ptx::space_shared);  // [PF] the generic reads, before the stage's next async write
      (void)ptx::mbarrier_arrive(&empty[s]);  // [A]
    }
  }
}

int main() {
  std::vector<int> init(12);
  for (int i = 0; i < 12; ++i) init[i] = i + 1;
  int* tensor = device_buffer<int>(12, init);
  int* out = device_buffer<int>(12);
  const CUtensorMap tmap = encode_tiled<int, 2>(tensor, {4, 3}, {4, 1});
  ring<<<1, 64>>>(tmap, out);
  finish();
  print("out", out, 12, {0, 3, 4, 8, 11});
  return 0;
}
