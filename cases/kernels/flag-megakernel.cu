// Megakernel hand-off between two sub-grids (seed 004, §2.1.3 "intra-GPU"): block 0 writes a layer's
// activations, __syncthreads(), and its thread 0 bumps a flag with a release RMW; in block 1 thread 0 polls
// the flag with relaxed loads, fences with fence.acquire.gpu, and __syncthreads() hands the data to the block.
//
// ptxmm-launch: --grid 2 --block 128 --arg act=int32[128] --arg flag=uint32[1] --arg out=int32[128] --assert 'out[0]==16 && out[126]==1276 && out[127]==6'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: fetch_add(release) = atom.add.release.gpu.u32,
// load(relaxed) = ld.relaxed.gpu.b32, cuda::ptx::fence(sem_acquire, scope_gpu) = fence.acquire.gpu,
// __syncthreads() = bar.sync 0):
// * [W] (line 30) writes act[t] (weak; the seed uses st.relaxed, plain stores are what CUDA code writes);
//   [R] (line 42) reads act[(t+1) % 128] in block 1. Every such pair conflicts across CTAs.
// * Producer: [W] po bar.sync sw bar.sync (thread 0, §2.8 rule 2) po [S], a release RMW (rp1, §2.5).
//   Consumer thread 0: [P] (strong read) po [F] (fence.acquire.gpu) is ap3. When [P] reads 1, [S] obs [P]
//   (both .gpu, ms, §2.6); [S] and [F] are .gpu of one GPU, ms: [S] sw [F] (§2.8 rule 4). Then [F] po
//   bar.sync sw bar.sync (thread t of block 1) po [R]. Base causality is transitive (§2.9: the "composition"
//   the seed describes), so every [W] is in causality order before every [R] (§2.10 C1): no race.
// * Values: act[t] = 10t + 5, out[t] = act[(t+1) % 128] + 1: out[0] = 16, out[126] = 1276, out[127] = 6.
#include "host.cuh"

#include <cuda/atomic>
#include <cuda/ptx>

__global__ void megakernel(int* act, unsigned* flag, int* out) {
  const int t = threadIdx.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {  // producer sub-grid: one layer
    act[t] = 10 * t + 5;  // [W]
    __syncthreads();      // all of the layer's writes before thread 0's release
    if (t == 0) {
      ready.fetch_add(1, cuda::std::memory_order_release);  // [S]
    }
  } else {  // consumer sub-grid: the next layer
    if (t == 0) {
      while (ready.load(cuda::std::memory_order_relaxed) == 0) {  // [P]
      }
      cuda::ptx::fence(cuda::ptx::sem_acquire, cuda::ptx::scope_gpu);  // [F]
    }
    __syncthreads();  // thread 0's acquire, then the whole block
    out[t] = act[(t + 1) % blockDim.x] + 1;  // [R]
  }
}

int main() {
  int* act = device_buffer<int>(128);
  unsigned* flag = device_buffer<unsigned>(1);
  int* out = device_buffer<int>(128);
  megakernel<<<2, 128>>>(act, flag, out);
  finish();
  print("out", out, 128, {0, 126, 127});
  return 0;
}
