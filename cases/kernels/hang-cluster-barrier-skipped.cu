// A cluster barrier that block 1 of a 2-block cluster skips: block 1 instead waits for a flag that block 0 sets
// only after the cluster barrier, so block 0 waits for block 1's arrival and block 1 for block 0's flag (the
// fix, hang-cluster-barrier-skipped-fixed.cu, has block 1 arrive and wait too).
//
// ptxmm-launch: --grid 2 --block 32 --cluster 2 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[32]
// ptxmm-expect: race-free
// ptxmm-expect: hang 38
// ptxmm-expect: hang 44
// ptxmm-expect: exit 1
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline (non-aligned)
// barrier.cluster.arrive.release + barrier.cluster.wait.acquire, st.release.gpu / ld.acquire.gpu):
// * barrier.cluster.wait completes when every non-exited thread of the cluster has arrived (§4.3). Block 1's
//   threads never arrive and never exit: they poll the flag at [P] (line 44). So block 0's threads wait at [B]
//   (line 38) for ever.
// * The flag's only write [S] follows [B] in block 0's thread 0 and never runs: block 1 reads 0 at [P] for
//   ever. Both lines hang, in every execution.
// * No race: [W] and [R] never both run (data is written after [B], read after [P]).
#include "host.cuh"

__device__ int ld_acquire_gpu(const int* ptr) {
  int ret;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(ret) : "l"(ptr));
  return ret;
}

__device__ void st_release_gpu(int* ptr, int val) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(ptr), "r"(val) : "memory");
}

__device__ void cluster_arrive_wait() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

__global__ void __cluster_dims__(2, 1, 1) skip_cluster_barrier(int* data, int* flag, int* out) {
  const int t = threadIdx.x;
  if (blockIdx.x == 0) {
    cluster_arrive_wait();  // [B]
    if (t == 0) {
      *data = 5;                 // [W]
      st_release_gpu(flag, 1);  // [S]
    }
  } else {  // bug: block 1 skips the cluster barrier
    while (ld_acquire_gpu(flag) == 0) {  // [P]
    }
    out[t] = *data;  // [R]
  }
}

int main() {
  int* data = device_buffer<int>(1);
  int* flag = device_buffer<int>(1);
  int* out = device_buffer<int>(32);
  skip_cluster_barrier<<<2, 32>>>(data, flag, out);
  finish(5);
  print("out", out, 32, {0, 31});
  return 0;
}
