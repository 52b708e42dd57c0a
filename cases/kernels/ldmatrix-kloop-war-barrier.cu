// An sm80-style GEMM k-loop (the CUTLASS / FlashAttention-2 pattern, one stage): each iteration copies a 16x16
// A tile and a 16x16 B tile of halves into shared memory with cp.async, waits for its own copies, joins the CTA
// with __syncthreads(), loads fragments with ldmatrix and multiplies with mma.sync, then joins the CTA again
// before the next iteration's cp.async overwrites the tiles (the write-after-read barrier, which the buggy
// sibling ldmatrix-kloop-no-war-barrier.cu lacks).
//
// ptxmm-launch: --grid 1 --block 64 --arg a=uint32[256] --arg b=uint32[256] --arg c=float32[256]
// ptxmm-expect: race-free
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: cp.async.cg.shared.global [d], [s], 16, 16 [CA],
// [CB]; cp.async.commit_group; cp.async.wait_group 0; bar.sync 0; ldmatrix.sync.aligned.m8n8.x4.shared.b16
// [LA]; ldmatrix.sync.aligned.m8n8.x2.shared.b16 [LB]; mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32):
// * [CA] (line 37) / [CB] (line 40): thread t copies 16 bytes (one row half) of tile k of A (threads 0-31) or
//   B (threads 32-63) into sA / sB: weak asynchronous writes of the generic proxy (§4.6), made complete for
//   the issuing thread by cp.async.wait_group 0 (reading A8) and published to the CTA by bar.sync 0 (§4.4).
// * [LA] (line 46): every warp loads the whole 16x16 A tile (x4: four 8x8 matrices; lane 8j+r names row r of
//   matrix j); [LB] (line 48): warp w loads rows 8w..8w+7 of sB (x2). Each lane's ldmatrix reads are weak
//   4-byte loads of the words it receives (PTX ISA ldmatrix fragment); mma.sync touches only registers.
// * The __syncthreads() after the mma (line 52) orders every lane's iteration-0 reads [LA], [LB] before
//   every thread's iteration-1 copies [CA], [CB] (§4.4; cp.async is ordered after its thread's prior
//   instructions, §4.6): no read races with a later write.
// * The first iteration's reads are ordered after the copies by wait_group + bar.sync (no race there), and
//   thread t's two copies to the same bytes are ordered by its own wait_group (§4.6).
#include "host.cuh"

#include <cstdint>

__global__ void gemm_kloop(const uint32_t* a, const uint32_t* b, float* c) {
  __shared__ __align__(128) uint16_t sA[16 * 16], sB[16 * 16];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  float acc[4] = {0, 0, 0, 0};
  for (int k = 0; k < 2; ++k) {
    const int chunk = t % 32;  // 32 chunks of 16 bytes per tile: row chunk / 2, half chunk % 2
    if (t < 32) {
      const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&sA[chunk * 8]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(a + k * 128 + chunk * 4));  // [CA]
    } else {
      const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&sB[chunk * 8]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(b + k * 128 + chunk * 4));  // [CB]
    }
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    uint32_t fa[4], fb[2];
    const uint32_t rowA = static_cast<uint32_t>(__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(fa[0]), "=r"(fa[1]), "=r"(fa[2]), "=r"(fa[3]) : "r"(rowA));  // [LA]
    const uint32_t rowB = static_cast<uint32_t>(__cvta_generic_to_shared(&sB[(warp * 8 + lane % 8) * 16 + ((lane / 8) % 2) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(fb[0]), "=r"(fb[1]) : "r"(rowB));  // [LB]
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
    __syncthreads();  // the tiles are free for the next iteration's copies
  }
  for (int i = 0; i < 4; ++i) c[t * 4 + i] = acc[i];
}

int main() {
  std::vector<uint32_t> ones(256, 0x3c003c00u);  // pairs of half 1.0
  uint32_t* a = device_buffer<uint32_t>(256, ones);
  uint32_t* b = device_buffer<uint32_t>(256, ones);
  float* c = device_buffer<float>(256);
  gemm_kloop<<<1, 64>>>(a, b, c);
  finish();
  print("c", c, 256, {0, 255});
  return 0;
}
