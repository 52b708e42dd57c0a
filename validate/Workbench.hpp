// What the hardware pipeline needs from outside the libraries: somewhere to build a generated CUDA program
// (compile it, disassemble it) and a way to run the binary. validate does no I/O of its own: it generates the
// program, checks the listing, reads the run's output and compares; the ptxmm executable implements this
// interface with files and the CUDA tools run as programs (app/hardware/CudaWorkbench.hpp).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptxmm::validate {

/// A tool failed on a generated program (a bug in ptxmm or a broken installation).
struct ToolFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct BuiltProgram {
  std::string binary;       // what Workbench::run takes
  std::string listing;      // its SASS (cuobjdump -sass)
  std::string listingFile;  // where the listing is kept, for messages that point at it
};

struct ProgramRun {
  int status = -1;         // the exit status
  bool timedOut = false;   // killed at the time limit
  std::string output;      // stdout and stderr together
};

class Workbench {
 public:
  virtual ~Workbench() = default;
  /// Why nothing can be built here (a tool is missing, and how to get it); nullopt when everything is there.
  virtual std::optional<std::string> unavailable() const = 0;
  /// The compiler's version for reports ("release 13.0, V13.0.88").
  virtual std::string compilerVersion() const = 0;
  /// Builds `source` in folder `dir` for sm_90 and disassembles it. Throws ToolFailure.
  virtual BuiltProgram build(const std::string& dir, const std::string& source) = 0;
  /// Runs `binary` with `arguments`, killed after `timeoutSeconds`.
  virtual ProgramRun run(const std::string& binary, const std::vector<std::string>& arguments,
                         double timeoutSeconds) = 0;
  /// Keeps `text` as the file `name` in the build folder `dir` (e.g. the run's seed and instances).
  virtual void keep(const std::string& dir, const std::string& name, const std::string& text) = 0;
};

}  // namespace ptxmm::validate
