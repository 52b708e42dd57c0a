// HardwareTest -> one standalone CUDA program. Each litmus thread becomes an `extern "C" __device__ __noinline__`
// role function (so its SASS can be found and checked on its own) in which every litmus instruction is its own
// `asm volatile` statement with its exact PTX (PtxForm.hpp), every access gets its own address argument, and
// every loaded value stays live. The runtime around it (validate/harness/) is the same for every test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validate/HardwareTest.hpp"

namespace ptxmm::validate {

struct GeneratorInput {
  const HardwareTest* test = nullptr;
  std::vector<std::vector<std::int64_t>> allowed;  // the model's permitted states, in key order
  bool modelKnown = false;                         // `allowed` is complete: the GPU may flag the rest
};

/// The whole .cu file.
std::string generateCuda(const GeneratorInput& input);

/// The name of role `r`'s function in the program (and in its SASS).
std::string roleFunctionName(int role);

/// The most allowed states the GPU compares each outcome against (more: the host classifies alone).
inline constexpr std::size_t kMaxAllowedOnGpu = 1024;

}  // namespace ptxmm::validate
