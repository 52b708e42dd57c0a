// The TMA-store epilogue of tma-store-epilogue-two-tiles.cu without cp.async.bulk.wait_group.read before the
// staging buffer is reused: the elected thread commits the bulk store of tile 0 and goes straight to the
// named barrier, so the consumer warps overwrite the buffer with tile 1 while the copy may still be reading it
// (the bug CUTLASS's tma_store_wait<0>() prevents).
//
// ptxmm-launch: --grid 1 --block 96 --arg out=int32[128] --assert 'out[0]==0 && out[63]==63 && out[64]==1000 && out[127]==1063'
// ptxmm-expect: race 33 37 different-proxies
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX as in tma-store-epilogue-two-tiles.cu without the
// cp.async.bulk.wait_group.read 0):
// * The copy [S] (line 37) of tile 0 reads the buffer in the async proxy (weak, §4.7); it is ordered after what
//   the issuing thread did before it (issue order, §2.9 iss) and before nothing: async accesses have no
//   outgoing po, and without a wait_group no completion of its reads is observed by anyone (§4.7). So the
//   tile-1 stores [W] (line 33, generic, every consumer thread, after [B2] at line 41) are not in causality
//   order with the copy's reads: conflicting, weak, different proxies — a race, kind different-proxies (race
//   kinds: proxies first, cases/kernels/README).
// * The copy may read the overwritten values 1000 + c: out[0] == 0 is not guaranteed (§3.6), so the assertion
//   fails. Tile 1's copy is still ordered after the tile-1 stores as in the fixed sibling.
#include "host.cuh"

#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__global__ void epilogue(int* out) {
  __shared__ alignas(128) int stage[64];
  const int t = threadIdx.x;
  if (t < 32) return;  // the producer warp: its mainloop is elsewhere
  const int c = t - 32;  // consumer thread 0..63 (two warps)
  for (int k = 0; k < 2; ++k) {
    stage[c] = 1000 * k + c;                                       // [W]
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");   // [PF]
    asm volatile("bar.sync 1, 64;" ::: "memory");                  // [B1]
    if (c == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 256;" ::"l"(out + 64 * k), "r"(smem_addr(stage)));  // [S]
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      // missing here: cp.async.bulk.wait_group.read 0 before the buffer is reused
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");  // [B2]
  }
}

int main() {
  int* out = device_buffer<int>(128);
  epilogue<<<1, 96>>>(out);
  finish();
  print("out", out, 128, {0, 63, 64, 127});
  return 0;
}
