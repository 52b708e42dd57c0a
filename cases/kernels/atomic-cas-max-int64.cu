// A 64-bit atomicMax built from an atomicCAS retry loop (the idiom used for double/float max, here on signed 64-bit
// integers so the result can be asserted): the first read is a volatile (strong) load, every retry re-reads the
// value the failed CAS returned. 2 CTAs of 32 threads; the loop must end and nothing races.
//
// ptxmm-launch: --grid 2 --block 32 --arg in=int64[64]=-5,7,3000000000,-9,12 --arg result=int64[1]=-9223372036854775808 --assert 'result[0]==3000000000' --observe 'result[0]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe result[0] 3000000000
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: [V] ld.volatile.global.u64 (= relaxed.sys, §5.1),
// [CAS] atom.global.cas.b64 (relaxed.gpu), a loop back-edge on "the CAS returned something else"):
// * Accesses to result[0]: the volatile loads [V] (line 26) and the CASes [CAS] (line 28) of all 64 threads; all
//   strong with scopes containing every thread (.sys and .gpu), so every pair is morally strong (§2.3): race-free
//   (§2.4). `in` is only read.
// * Termination: a thread retries only when its CAS read a value different from its expected one, i.e. a value
//   some other thread's successful CAS wrote after the one it expected (CASes are linearized, §3.3, and each
//   thread's expected value is the last one it read); every value written is strictly larger than the one it
//   replaced, so there are at most 64 successful CASes and a thread fails at most that many times: the loop ends
//   in every execution (no fairness needed). A thread also leaves the loop as soon as the value read is >= its own.
// * Value: the writes to result[0] form an increasing chain from the initial INT64_MIN, and the thread holding the
//   maximum 3000000000 either writes it or reads a value >= it, which only it can write: result ends 3000000000.
#include "host.cuh"

__device__ long long atomic_max64(long long* addr, long long v) {
  long long old = *reinterpret_cast<volatile long long*>(addr);  // [V]
  while (old < v) {
    const long long seen = static_cast<long long>(atomicCAS(reinterpret_cast<unsigned long long*>(addr),  // [CAS]
                                                            static_cast<unsigned long long>(old),
                                                            static_cast<unsigned long long>(v)));
    if (seen == old) break;
    old = seen;
  }
  return old;
}

__global__ void max_kernel(const long long* in, long long* result) {
  atomic_max64(result, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

int main() {
  long long* in = device_buffer<long long>(64, {-5, 7, 3000000000LL, -9, 12});
  long long* result = device_buffer<long long>(1, {static_cast<long long>(-9223372036854775807LL - 1)});
  max_kernel<<<2, 32>>>(in, result);
  finish();
  print("result", result, 1, {0});
  return 0;
}
