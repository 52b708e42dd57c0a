// The multi-GPU pattern of seed 000 ("GPU 0: write to pinned host memory ... __threadfence_system()"), both
// sides in one kernel: block 0 publishes with __threadfence_system() and a flag store, block 1 polls the flag
// and fences before using the data. The flag is volatile: as plain C++ the poll is hoisted out of the loop
// (see flag-plain-hoisted.cu).
//
// ptxmm-launch: --grid 2 --block 32 --arg host_data=int32[1] --arg host_flag=int32[1] --arg out=int32[1] --assert 'out[0]==7'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __threadfence_system() = membar.sys, the flag
// accesses st.volatile / ld.volatile):
// * membar.sys = fence.sc.sys (§1.5). Producer [W] (line 25, weak) po [F1] po [F] (st.volatile = relaxed.sys,
//   strong): rp3; consumer [P] (ld.volatile, strong) po [F2]: ap3 (§2.5, A7). [F] obs [P] when [P] reads 1
//   (relaxed.sys both, ms), F1 and F2 are ms fence.sc.sys: F1 sw F2 (§2.8 rule 4), so [W] is in causality order
//   before [R] (line 32) (§2.10 C1): no race; out[0] = 7. Host memory or device memory makes no difference
//   to the model; .sys scope is what a host or peer-GPU reader would need.
#include "host.cuh"

__device__ int compute_result() { return 7; }

__global__ void system_handoff(int* host_data, volatile int* host_flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {  // "GPU 0"
    *host_data = compute_result();  // [W]
    __threadfence_system();         // [F1] Or st_release_sys()
    *host_flag = 1;                 // [F]
  } else {  // "GPU 1"
    while (*host_flag == 0) {  // [P]
    }
    __threadfence_system();  // [F2] Or ld_acquire_sys()
    *out = *host_data;       // [R]
  }
}

int main() {
  int* host_data = device_buffer<int>(1);
  int* host_flag = device_buffer<int>(1);
  int* out = device_buffer<int>(1);
  system_handoff<<<2, 32>>>(host_data, host_flag, out);
  finish();
  print("out", out, 1, {0});
  return 0;
}
