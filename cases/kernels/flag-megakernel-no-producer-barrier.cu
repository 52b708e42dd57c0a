// The megakernel hand-off of flag-megakernel.cu without the producer block's __syncthreads() before the
// release (seed 004 §2.1.3 leaves "the producer side as an exercise"): thread 0's release covers only its own
// write, not the other 127 threads' activations.
//
// ptxmm-launch: --grid 2 --block 128 --arg act=int32[128] --arg flag=uint32[1] --arg out=int32[128] --assert 'out[0]==16 && out[126]==1276 && out[127]==6'
// ptxmm-expect: race 26 38 no-synchronisation
// ptxmm-expect: assert fails
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; same PTX as flag-megakernel.cu minus one bar.sync):
// * A release pattern covers what is po-before its first instruction (§2.5): [S] (atom.add.release.gpu) is
//   po-after only thread 0's own [W]. For a producer thread t != 0, [W] (line 26) has no po or sw path to [S]
//   (it executes no barrier and no release), so nothing orders it before [R] (line 38) of the consumer thread
//   that reads act[t]: weak accesses, not ms, not in causality order: a race, no-synchronisation.
// * out[0] reads act[1], written by producer thread 1 with no ordering: it may read the initial 0, so
//   out[0] == 16 is not guaranteed (§3.6).
#include "host.cuh"

#include <cuda/atomic>
#include <cuda/ptx>

__global__ void megakernel(int* act, unsigned* flag, int* out) {
  const int t = threadIdx.x;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {  // producer sub-grid: one layer
    act[t] = 10 * t + 5;  // [W]
    // missing: __syncthreads();
    if (t == 0) {
      ready.fetch_add(1, cuda::std::memory_order_release);  // [S]
    }
  } else {  // consumer sub-grid: the next layer
    if (t == 0) {
      while (ready.load(cuda::std::memory_order_relaxed) == 0) {  // [P]
      }
      cuda::ptx::fence(cuda::ptx::sem_acquire, cuda::ptx::scope_gpu);  // [F]
    }
    __syncthreads();
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
