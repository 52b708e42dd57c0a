// The first part of every generated validation program (validate/CudaGenerator.cpp puts the test's shape
// macros before it, the test's role functions after it and Main.cuh last): the litmus register arithmetic with
// ptxmm's value semantics, the start barrier that can never hang, the stress loops (global memory, shared-memory
// banks, bulk copies on other mbarriers, DSMEM), the addresses of one instance's locations in global memory, in
// its block's shared memory and in the shared memory of the other CTAs of its cluster, and the drains.
#include <cuda.h>  // CUtensorMap and its enums only: the encoder is found through the runtime, libcuda is not linked
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

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
// Extra traffic that no instance's locations see: stress warps run it while the roles execute, role warps run
// a little of it before the start barrier (pre-stress). Patterns: 0 stores, 1 loads, 2 both, 3 atomics on a
// global scratch buffer; 4 stores and loads over the banks of the block's shared stress area; 5 bulk copies
// from global memory into the stress area, each completing on the warp's own mbarrier (async-proxy and copy-
// engine traffic beside the test's); 6 stores and atomics into the stress area of the next CTA of the cluster
// (DSMEM traffic; the block's own banks outside cluster tests). Role warps run 5 as 4.
struct PtxmmStress {
  unsigned* scratch;        // global scratch, `lines` lines of 32 words
  unsigned lines;
  unsigned char* area;      // the block's shared stress area (generic address)
  unsigned areaShared;      // the same, as a .shared::cta address
  unsigned areaBytes;       // >= 512: 32 mbarriers of 8 bytes, then data
  unsigned peerArea;        // .shared::cluster address of the next CTA's area (0: no DSMEM stress)
};

constexpr unsigned kStressMbarrierBytes = 256;  // one 8-byte mbarrier per warp of a block
constexpr unsigned kStressCopyBytes = 256;

__device__ __noinline__ void ptxmm_stress(const PtxmmStress& s, unsigned iterations, int pattern, unsigned seed, bool roleWarp) {
  const unsigned lane = threadIdx.x & 31, warpInBlock = threadIdx.x >> 5;
  if (pattern == 5 && roleWarp) pattern = 4;
  if (pattern == 6 && s.peerArea == 0) pattern = 4;
  unsigned x = seed * 2654435761u + 12345u;
  unsigned acc = 0;
  const unsigned words = (s.areaBytes - kStressMbarrierBytes) / 4;
  if (pattern == 5) {
    // Lane 0 issues 256-byte copies on the warp's mbarrier, one at a time; a copy that does not complete in
    // time ends the loop (the mbarrier is then left alone).
    if (lane == 0) {
      const unsigned bar = s.areaShared + warpInBlock * 8;
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      const unsigned slots = (s.areaBytes - kStressMbarrierBytes) / kStressCopyBytes;
      for (unsigned i = 0; i < iterations && slots > 0; i += 8) {
        x = x * 1664525u + 1013904223u;
        const unsigned dst = s.areaShared + kStressMbarrierBytes + ((x >> 8) % slots) * kStressCopyBytes;
        const unsigned* src = s.scratch + static_cast<size_t>((x >> 12) % (s.lines > 2 ? s.lines - 2 : 1)) * 32;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "n"(kStressCopyBytes) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(dst), "l"(src), "n"(kStressCopyBytes), "r"(bar) : "memory");
        unsigned done = 0;
        for (int poll = 0; poll < (1 << 16) && !done; ++poll)
          asm volatile("{ .reg .pred P; mbarrier.test_wait.parity.shared::cta.b64 P, [%1], %2; selp.u32 %0, 1, 0, P; }"
                       : "=r"(done) : "r"(bar), "r"((i / 8) & 1) : "memory");
        if (!done) break;
      }
    }
    __syncwarp();
    return;
  }
  for (unsigned i = 0; i < iterations; ++i) {
    x = x * 1664525u + 1013904223u;
    if (pattern == 4) {
      volatile unsigned* p = reinterpret_cast<unsigned*>(s.area + kStressMbarrierBytes) + ((x >> 8) % words);
      *p = x;
      acc += *p;
      continue;
    }
    if (pattern == 6) {
      const unsigned p = s.peerArea + kStressMbarrierBytes + ((x >> 8) % words) * 4;
      if (i & 1) asm volatile("red.relaxed.cluster.shared::cluster.add.u32 [%0], 1;" :: "r"(p) : "memory");
      else asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0], %1;" :: "r"(p), "r"(x) : "memory");
      continue;
    }
    volatile unsigned* p = s.scratch + static_cast<size_t>((x >> 8) % s.lines) * 32 + lane;
    switch (pattern) {
      case 0: *p = x; break;
      case 1: acc += *p; break;
      case 2: *p = x; acc += *p; break;
      default: atomicAdd(const_cast<unsigned*>(p), 1u); break;
    }
  }
  if (acc == 0x9E3779B9u) s.scratch[lane] = acc;  // keeps the loads live
}

// ---- one instance's locations -----------------------------------------------------------------------------
// The address of location `loc` of the instance whose slot row is `slots`. The slot is read with a volatile load
// for every access separately, so that the compiler cannot prove two accesses to use the same address (ptxas
// forwards and merges weak accesses it can prove equal, even inside asm volatile).
__device__ __forceinline__ std::uint32_t ptxmm_slot(const std::uint32_t* slots, int loc) {
  std::uint32_t slot;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(slot) : "l"(slots + loc) : "memory");
  return slot;
}

__device__ __forceinline__ unsigned long long ptxmm_address(unsigned char* buffer, const std::uint32_t* slots, int loc,
                                                            unsigned stride) {
  return reinterpret_cast<unsigned long long>(buffer + static_cast<size_t>(ptxmm_slot(slots, loc)) * stride);
}

// What the dispatcher of one instance needs: its slot rows, the block's shared instance area, the blocks of its
// group (for the cluster rank of another CTA), the tensor map, the start barrier and where the outputs go.
struct PtxmmPlay {
  unsigned char* buffer;              // this launch's location buffer
  const std::uint32_t* slots;         // the instance's global slots
  unsigned stride;
  unsigned sharedBase;                // .shared::cta address of the block's instance area
  unsigned char* sharedGeneric;       // its generic address
  const std::uint32_t* sharedSlots;   // the instance's shared slots in its own block
  const std::uint32_t* sharedMap;     // the launch's shared map: [instance slot][shared location]
  unsigned lane;                      // the instance's index in its group
  unsigned sharedStride;
  const std::int32_t* ctaBlock;       // per test CTA: the block playing it for this instance's group
  const std::int32_t* ctaSlot;        // per test CTA: the group's slot in that block
  unsigned long long tensorMap;       // generic address of the tensor map (a __grid_constant__ parameter)
  unsigned coordinateBase;            // element offset of this launch's buffer in the tensor map
  int cap;
  long long* out;
  PtxmmStartBarrier bar;
  long long drainCycles;
  unsigned long long* drainTimeouts;
};

// Shared location `loc` of this instance in its own block.
__device__ __forceinline__ unsigned ptxmm_shared_address(const PtxmmPlay& c, int loc) {
  return c.sharedBase + ptxmm_slot(c.sharedSlots, loc) * c.sharedStride;
}

__device__ __forceinline__ unsigned long long ptxmm_generic_shared_address(const PtxmmPlay& c, int loc) {
  return reinterpret_cast<unsigned long long>(c.sharedGeneric + static_cast<size_t>(ptxmm_slot(c.sharedSlots, loc)) * c.sharedStride);
}

// Shared location `loc` of this instance in the block that plays test CTA `cta`: its offset there (from the
// group's slot in that block), mapped into that block's .shared::cluster window. A 1-D cluster of the grid
// holds consecutive blocks, so a block's rank is its index modulo the cluster size (checked on the GPU against
// %cluster_ctarank before any role runs).
__device__ __forceinline__ unsigned ptxmm_cluster_address(const PtxmmPlay& c, int loc, int cta) {
  const unsigned instance = static_cast<unsigned>(c.ctaSlot[cta]) * 32 + c.lane;
  const unsigned local = c.sharedBase + ptxmm_slot(c.sharedMap + static_cast<size_t>(instance) * PTXMM_SHARED_LOCATIONS, loc) * c.sharedStride;
  const unsigned rank = static_cast<unsigned>(c.ctaBlock[cta]) % PTXMM_CLUSTER_SIZE;
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank));
  return remote;
}

// The tensor-map coordinate (4-byte elements) of global location `loc` of this instance.
__device__ __forceinline__ unsigned ptxmm_coordinate(const PtxmmPlay& c, int loc) {
  return c.coordinateBase + ptxmm_slot(c.slots, loc) * (c.stride / 4);
}

// After a role: wait (bounded) until phase 0 of an mbarrier its copies complete on has completed, so that the
// block does not end under a copy still in flight. A wait that runs out is counted; it changes no outcome.
__device__ __noinline__ void ptxmm_drain_mbarrier(const PtxmmPlay& c, unsigned bar) {
  const long long start = clock64();
  for (;;) {
    unsigned done;
    asm volatile("{ .reg .pred P; mbarrier.test_wait.parity.shared::cta.b64 P, [%1], 0; selp.u32 %0, 1, 0, P; }"
                 : "=r"(done) : "r"(bar) : "memory");
    if (done) return;
    if (clock64() - start > c.drainCycles) {
      atomicAdd(c.drainTimeouts, 1ull);
      return;
    }
  }
}

// The cluster-wide barrier the harness puts before and after the roles of a test that reaches another CTA's
// shared memory (every thread of the cluster: peers initialised before, and alive until the last access).
__device__ __forceinline__ void ptxmm_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
