// The CUDA tools ptxmm runs as subprocesses (no CUDA header or library is linked into ptxmm): nvcc to build a
// generated program, cuobjdump to disassemble it, and the program itself. Tools are found in $CUDA_HOME/bin,
// /usr/local/cuda/bin or PATH; cuobjdump also in the project-local wheel that `make setup` installs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ptxmm::validate {

struct CommandResult {
  int status = -1;     // the exit status; 124 when the time limit killed it
  std::string output;  // stdout and stderr together
};

/// Runs `argv` (no shell) with a time limit in seconds (0: none), capturing both output streams.
CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds = 0);

/// The full path of CUDA tool `name` (nvcc, cuobjdump), or nullopt.
std::optional<std::string> findTool(const std::string& name);

/// Where `make setup` installs cuobjdump and nvdisasm (the nvidia-cuda-cuobjdump/-nvdisasm wheels).
std::string localToolDir();

struct Toolchain {
  std::string nvcc;
  std::string cuobjdump;
  std::string nvccVersion;  // "release 13.0, V13.0.88"
};

/// Both tools, or a message saying which is missing and how to get it.
std::optional<Toolchain> findToolchain(std::string& problem);

/// Builds `cu` into the executable `binary` for sm_90. Returns the compiler output when it fails.
std::optional<std::string> compileCuda(const Toolchain& tc, const std::string& cu, const std::string& binary);

/// The SASS listing of `binary`, or nullopt with the error in `problem`.
std::optional<std::string> disassemble(const Toolchain& tc, const std::string& binary, std::string& problem);

/// 64-bit FNV-1a of `text`, as 16 hex digits (the SASS hash in reports).
std::string fnv1a(const std::string& text);

}  // namespace ptxmm::validate
