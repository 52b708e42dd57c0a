// cuda::atomic_ref at the three thread scopes of seed 000 ("cuda::std::atomic (libcu++)"), each where it is
// enough: a block-scope counter in shared memory for the block's own threads, a device-scope total for all
// blocks, and a system-scope release increment that a host (or another GPU) could poll.
//
// ptxmm-launch: --grid 2 --block 128 --arg in=int32[256]=-1,-2,5 --arg total=int32[1] --arg done=int32[1] --assert 'total[0]==254 && done[0]==2'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.add.relaxed.cta (block), ld.relaxed.cta,
// atom.add.relaxed.gpu (device), atom.add.release.sys (system); the counter's reset is a plain st.shared):
// * block_count: [Z] (line 25, weak store by thread 0) is ordered before every [B] (line 30,
//   atom.add.relaxed.cta) by bar.sync (§2.8 rule 2, §2.10 C1). The [B] of one block are .cta RMWs of threads
//   of that block: morally strong (§2.3), linearized (§3.3). The second bar.sync orders all of them before
//   thread 0's [L] (line 35): it reads the block's count.
// * total: one [D] (line 37, atom.add.relaxed.gpu) per block, ms across blocks: no race; linearized, so
//   total[0] = 126 + 128 = 254.
// * done: one [S] (line 39, atom.add.release.sys) per block, ms: no race, done[0] = 2.
#include "host.cuh"

#include <cuda/atomic>

__global__ void count_nonnegative(const int* in, int* total, int* done) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;  // [Z]
  __syncthreads();

  cuda::atomic_ref<int, cuda::thread_scope_block> blk(block_count);  // block scope: this block's threads only
  if (in[blockIdx.x * blockDim.x + threadIdx.x] >= 0) {
    blk.fetch_add(1, cuda::std::memory_order_relaxed);  // [B]
  }
  __syncthreads();

  if (threadIdx.x == 0) {
    const int mine = blk.load(cuda::std::memory_order_relaxed);  // [L]
    cuda::atomic_ref<int, cuda::thread_scope_device> dev(*total);  // device scope: every block
    dev.fetch_add(mine, cuda::std::memory_order_relaxed);          // [D]
    cuda::atomic_ref<int, cuda::thread_scope_system> sys(*done);   // system scope: the host may poll it
    sys.fetch_add(1, cuda::std::memory_order_release);             // [S]
  }
}

int main() {
  int* in = device_buffer<int>(256, {-1, -2, 5});
  int* total = device_buffer<int>(1);
  int* done = device_buffer<int>(1);
  count_nonnegative<<<2, 128>>>(in, total, done);
  finish();
  print("total", total, 1, {0});
  print("done", done, 1, {0});
  return 0;
}
