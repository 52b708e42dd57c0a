// The first part of every generated validation program (validate/CudaGenerator.cpp puts the test's role
// functions after it and Main.cuh last): the litmus register arithmetic with ptxmm's value semantics, the
// start barrier that can never hang, the stress loop, and the access to one instance's location slots.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// ---- register arithmetic: 64-bit two's complement, as model/ValueExpr.cpp defines it ----------------------
// Wrapping instead of signed overflow (undefined in C++), division and remainder by zero give 0, shift amounts
// are clamped to [0, 63]: a hardware run must compute exactly the values the model computes.
__device__ __forceinline__ long long ptxmm_wrap(unsigned long long v) { return static_cast<long long>(v); }
__device__ __forceinline__ unsigned long long ptxmm_u(long long v) { return static_cast<unsigned long long>(v); }
__device__ __forceinline__ long long ptxmm_add(long long a, long long b) { return ptxmm_wrap(ptxmm_u(a) + ptxmm_u(b)); }
__device__ __forceinline__ long long ptxmm_sub(long long a, long long b) { return ptxmm_wrap(ptxmm_u(a) - ptxmm_u(b)); }
__device__ __forceinline__ long long ptxmm_mul(long long a, long long b) { return ptxmm_wrap(ptxmm_u(a) * ptxmm_u(b)); }
__device__ __forceinline__ bool ptxmm_div_undefined(long long a, long long b) {
  return b == 0 || (b == -1 && a == (-9223372036854775807LL - 1));
}
__device__ __forceinline__ long long ptxmm_div(long long a, long long b) { return ptxmm_div_undefined(a, b) ? 0 : a / b; }
__device__ __forceinline__ long long ptxmm_rem(long long a, long long b) { return ptxmm_div_undefined(a, b) ? 0 : a % b; }
__device__ __forceinline__ int ptxmm_shift(long long s) { return s < 0 ? 0 : s > 63 ? 63 : static_cast<int>(s); }
__device__ __forceinline__ long long ptxmm_shl(long long a, long long s) { return ptxmm_wrap(ptxmm_u(a) << ptxmm_shift(s)); }
__device__ __forceinline__ long long ptxmm_shr(long long a, long long s) { return a >> ptxmm_shift(s); }
__device__ __forceinline__ long long ptxmm_min(long long a, long long b) { return a < b ? a : b; }
__device__ __forceinline__ long long ptxmm_max(long long a, long long b) { return a > b ? a : b; }
__device__ __forceinline__ long long ptxmm_neg(long long a) { return ptxmm_wrap(0ull - ptxmm_u(a)); }

// ---- the start barrier --------------------------------------------------------------------------------------
// The warps of one group (all roles of 32 instances) meet here so that the roles start close together. Lane 0
// arrives and spins on the group's counter; the counter only grows (each launch adds `roles`), so no reset is
// needed. The spin has a clock64 timeout: a missing or late participant costs some synchronisation, never a hang.
struct PtxmmStartBarrier {
  unsigned* counter;
  unsigned target;
  long long timeoutCycles;
  bool enabled;
  unsigned long long* timeouts;

  __device__ __forceinline__ void wait() const {
    if (!enabled) return;
    if ((threadIdx.x & 31) == 0) {
      atomicAdd(counter, 1u);
      const long long start = clock64();
      for (;;) {
        unsigned seen;
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
        if (static_cast<int>(seen - target) >= 0) break;
        if (clock64() - start > timeoutCycles) {
          atomicAdd(timeouts, 1ull);
          break;
        }
      }
    }
    __syncwarp();
  }
};

// ---- memory stress ------------------------------------------------------------------------------------------
// Extra traffic on a scratch buffer that no instance uses: stress warps run it while the roles execute, role
// warps run a little of it before the start barrier (pre-stress). Patterns: 0 stores, 1 loads, 2 both, 3 atomics.
__device__ __noinline__ void ptxmm_stress(unsigned* scratch, unsigned lines, unsigned iterations, int pattern, unsigned seed) {
  const unsigned lane = threadIdx.x & 31;
  unsigned x = seed * 2654435761u + 12345u;
  unsigned acc = 0;
  for (unsigned i = 0; i < iterations; ++i) {
    x = x * 1664525u + 1013904223u;
    volatile unsigned* p = scratch + static_cast<size_t>((x >> 8) % lines) * 32 + lane;
    switch (pattern) {
      case 0: *p = x; break;
      case 1: acc += *p; break;
      case 2: *p = x; acc += *p; break;
      default: atomicAdd(const_cast<unsigned*>(p), 1u); break;
    }
  }
  if (acc == 0x9E3779B9u) scratch[lane] = acc;  // keeps the loads live
}

// ---- one instance's locations -----------------------------------------------------------------------------
// The address of location `loc` of the instance whose slot row is `slots`. The slot is read with a volatile load
// for every access separately, so that the compiler cannot prove two accesses to use the same address (ptxas
// forwards and merges weak accesses it can prove equal, even inside asm volatile).
__device__ __forceinline__ unsigned long long ptxmm_address(unsigned char* buffer, const std::uint32_t* slots, int loc,
                                                            unsigned stride) {
  std::uint32_t slot;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(slot) : "l"(slots + loc) : "memory");
  return reinterpret_cast<unsigned long long>(buffer + static_cast<size_t>(slot) * stride);
}
