// The options of `ptxmm validate` as the user gives them (files, folders, --tune, --compare), and the few things
// derived from them that more than one hardware command needs: the parameter space and the output folder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "checker/TestRunner.hpp"
#include "validate/Params.hpp"

namespace ptxmm::app {

struct HardwareOptions {
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

/// Reads a parameter space file; throws model::UserError naming the file for a missing or malformed one.
validate::ParamSpace readParamSpace(const std::string& path);

/// The space --params names, or the built-in one.
validate::ParamSpace paramSpace(const HardwareOptions& options);

/// --out, or the ptxmm-validate folder in the temp dir.
std::string outputFolder(const HardwareOptions& options);

}  // namespace ptxmm::app
