// The hardware pipeline's Workbench on this machine: the CUDA tools ptxmm runs as programs (no CUDA header or
// library is linked into ptxmm) and the build folders they work in. nvcc builds a generated program, cuobjdump
// disassembles it, and the program itself runs; tools are found in $CUDA_HOME/bin, /usr/local/cuda/bin or PATH,
// cuobjdump also in the project-local wheel that `make setup` installs. Each build folder keeps test.cu, the
// binary, test.sass and the run's result.json; a binary built from exactly the same program is reused.
#pragma once

#include <optional>
#include <string>

#include "validate/Workbench.hpp"

namespace ptxmm::app {

/// The full path of CUDA tool `name` (nvcc, cuobjdump): $CUDA_HOME/bin, /usr/local/cuda/bin, PATH, then the
/// project-local wheel folder; nullopt when none has it.
std::optional<std::string> findCudaTool(const std::string& name);

class CudaWorkbench : public validate::Workbench {
 public:
  /// Looks for nvcc and cuobjdump (and asks nvcc for its version).
  CudaWorkbench();

  std::optional<std::string> unavailable() const override { return problem_; }
  std::string compilerVersion() const override { return nvccVersion_; }
  validate::BuiltProgram build(const std::string& dir, const std::string& source) override;
  validate::ProgramRun run(const std::string& binary, const std::vector<std::string>& arguments,
                           double timeoutSeconds) override;
  void keep(const std::string& dir, const std::string& name, const std::string& text) override;

 private:
  std::string nvcc_;
  std::string cuobjdump_;
  std::string nvccVersion_;  // "release 13.0, V13.0.88"
  std::optional<std::string> problem_;
};

}  // namespace ptxmm::app
