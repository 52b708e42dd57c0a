// `ptxmm validate`: for each litmus file, the model's permitted states, the hardware harness (generated,
// compiled, SASS-checked), the run, the comparison, and for a forbidden test the run of an allowed sibling; also
// `--tune` (a parameter search measured in weak outcomes per second) and `--compare` (a stored report against
// the current model, without a GPU).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/TestRunner.hpp"
#include "model/ExitCode.hpp"
#include "validate/Report.hpp"

namespace ptxmm::validate {

struct ValidateOptions {
  std::string modelFile;
  checker::RunOptions run;              // unroll bound and engine of the model check
  double budget = 5;                    // seconds of GPU time per test (and per sibling)
  std::optional<std::uint64_t> seed;    // none: a fresh seed, printed for replay
  std::string outDir;                   // generated programs and their SASS; empty: a folder in the temp dir
  bool json = false;                    // one JSON object per test and line
  bool compileOnly = false;             // generate, compile and check the SASS; no GPU needed
  std::string paramsFile;               // parameter space; empty: validate/params/default.json
  std::string siblingFile;              // the allowed sibling of the (single) forbidden test
  bool tune = false;
  int trials = 8;                       // --tune: parameter sets tried
  std::string reportFile;               // also write every test into one JSON document
};

/// Validates `files` and prints the reports; the worst exit code wins.
ExitCode validateFiles(const std::vector<std::string>& files, const ValidateOptions& options);

/// Re-checks a stored JSON report (cases/hw/*.json) against the current model and prints the differences:
/// exit 1 when an observed state is forbidden by the model now.
ExitCode compareReport(const std::string& reportPath, const ValidateOptions& options);

}  // namespace ptxmm::validate
