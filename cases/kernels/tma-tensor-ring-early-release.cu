// The two-stage TMA ring of tma-tensor-ring.cu with the consumers releasing a stage too early: each arrives on
// the stage's "empty" mbarrier right after its "full" wait and only then reads the stage, so the producer may
// already be refilling it with the tile two rounds later while they read.
//
// ptxmm-launch: --grid 1 --block 64 --arg 'tmap=tensormap(int32,4x3,box=4x1)=1,2,3,4,5,6,7,8,9,10,11,12' --arg out=int32[12] --assert 'out[0]==1 && out[3]==4 && out[4]==5 && out[8]==9 && out[11]==12'
// ptxmm-expect: race 48 56 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in tma-tensor-ring.cu with the arrive [A] before the
// ld.shared [R]):
// * Round r's [R] (line 56) is po-after the consumer's release arrive [A] (line 55) on empty[r % 2], so the
//   producer's acquire [WE] on that phase and round r + 2's copy [L] (line 48) into the same stage are not ordered
//   after it: a release covers only what is po-before it (§2.5). [R] (generic read) and [L] (async write) conflict
//   in no causality order: a race, kind different-proxies.
// * Round 0's [R] may read round 2's row (§3.6): out[0]==1 may fail (9 instead). The RAW side is unchanged.
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
      (void)ptx::mbarrier_arrive(&empty[s]);  // [A] released before the last use: the bug
      out[4 * r + t] = stage[s][t];  // [R]
      ptx::fence_proxy_async(ptx::space_shared);  // [PF] too late: the stage is already released
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
