// The PTX launch instantiator: a PTX module and a launch configuration (grid, block, cluster, arguments) give the
// KernelProgram the checker consumes (KernelProgram.hpp). It picks the kernel, checks the launch against the
// kernel's directives (.reqntid, .maxntid, .reqnctapercluster), gives every pointer parameter, .global/.const
// variable and CTA shared variable a buffer with a synthetic address, runs every thread of the grid through the
// partial evaluator twice (first to find which bytes any thread may write, then to read the others concretely
// and keep the residual code), and names the Program locations after their buffers. `ptxmm kernel` calls it
// with the PTX it read or had nvcc generate.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "frontend/ptx/KernelProgram.hpp"
#include "frontend/ptx/LaunchContext.hpp"

namespace ptxmm::frontend {

struct InstantiateOptions {
  ptx::InstantiateLimits limits;
  /// Reads a source file named by the PTX's .file table (to recover the kernel's parameter names); may be empty,
  /// and may return nullopt. Parameters are then named param_0, param_1, ... (always accepted by --arg too).
  std::function<std::optional<std::string>(const std::string& path)> readSource;
};

/// Instantiates the kernel `launch.kernel` (CUDA or mangled name; empty: the module's only kernel) of the PTX
/// module `ptxText`, whose positions name `ptxFile`; `userFile` is the file the user gave (.cu or .ptx). Throws
/// model::UserError (located in the PTX) for bad PTX and for instructions a thread reaches that ptxmm does not
/// support, and OptionError for launch options that do not fit the kernel (a missing scalar argument, a block
/// the kernel's .reqntid forbids, an unknown kernel or argument).
KernelProgram instantiateKernel(std::string_view ptxText, const std::string& ptxFile, const std::string& userFile,
                                const LaunchConfig& launch, const InstantiateOptions& options = {});

}  // namespace ptxmm::frontend
