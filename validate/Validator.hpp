// One test on hardware, from Program to verdict: the model's permitted states, the harness (generated, built on
// a Workbench, SASS-checked), the run, the comparison, and for a forbidden test the run of an allowed sibling
// (given, else the first of the case's described broken siblings the model allows, else the first weakening). Reading the tests, printing the reports and choosing exit
// codes are the `ptxmm validate` command's (app/commands/ValidateCommand.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/TestRunner.hpp"
#include "validate/Params.hpp"
#include "validate/Pipeline.hpp"
#include "validate/Report.hpp"
#include "validate/Workbench.hpp"

namespace ptxmm::validate {

/// An allowed sibling read from a file (--sibling FILE, or a case beside the test that names itself its broken
/// sibling): its program, or why it could not be read.
struct GivenSibling {
  std::string file;
  std::optional<frontend::Program> program;
  std::string problem;
};

struct ValidateOptions {
  checker::RunOptions run;             // unroll bound and engine of the model check
  double budget = 5;                   // seconds of GPU time per test (and per sibling)
  std::uint64_t seed = 0;              // the seed of the parameters and layouts
  ParamSet params;                     // the parameter set drawn with `seed`
  std::string paramsFile;              // where the parameter space came from, for the replay command; empty: built in
  std::string outDir;                  // the build folders go below it, one per test
  bool compileOnly = false;            // generate, compile and check the SASS; no GPU needed
  std::optional<GivenSibling> sibling; // the allowed sibling of the (single) forbidden test
};

class Validator {
 public:
  Validator(const model::CatModel& model, ValidateOptions options, Workbench& bench);

  /// Validates `program`, read from `file`; `described` are the broken siblings its case names (tried in order
  /// when the test is forbidden and no --sibling was given).
  TestReport validate(const frontend::Program& program, const std::string& file, const std::vector<GivenSibling>& described = {});

 private:
  TestReport& fail(TestReport& r, Verdict v, bool internal, const std::string& why) const;
  std::string replay(const std::string& file) const;
  std::optional<std::pair<HardwareTest, Build>> prepare(const ModelCheck& m, TestReport& r);
  std::optional<ModelCheck> check(const frontend::Program& program, TestReport& r);
  void decide(TestReport& r) const;
  SiblingReport runSibling(const ModelCheck& original, bool run, const std::vector<GivenSibling>& described);

  const model::CatModel& model_;
  ValidateOptions o_;
  Workbench& bench_;
};

}  // namespace ptxmm::validate
