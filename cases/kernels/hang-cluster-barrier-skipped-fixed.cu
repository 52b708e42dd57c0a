// The fix of hang-cluster-barrier-skipped.cu: both blocks of the cluster arrive at and wait on the cluster
// barrier; block 1 then waits for block 0's flag.
//
// ptxmm-launch: --grid 2 --block 32 --cluster 2 --arg data=int32[1] --arg flag=int32[1] --arg out=int32[32] --assert 'out[0]==5 && out[31]==5'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; hangs: issue 13, fair progress; PTX: inline barrier.cluster.arrive
// .release + barrier.cluster.wait.acquire, st.release.gpu / ld.acquire.gpu):
// * All 64 threads of the cluster arrive at [B] (line 36, block 0) and [C] (line 42, block 1): the barrier's
//   phase completes and both waits return (§4.3).
// * Block 0's thread 0 then makes [W] and [S] (line 39, st.release.gpu); block 1's poll [P] (line 43,
//   ld.acquire.gpu) is morally strong with it (.gpu, §2.3), so [S] is eventually visible to it (ptx-core.cat
//   `eventually-visible`) and the loop ends under fair progress.
// * [W] (line 38) po [S] (rp1) obs [P] reading 1 (ap1) po [R] (line 45): sw (§2.8), no race; out[t] = 5.
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
  } else {
    cluster_arrive_wait();  // [C] block 1 arrives and waits too
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
  finish();
  print("out", out, 32, {0, 31});
  return 0;
}
