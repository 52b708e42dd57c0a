// The steps every hardware command shares: the model check of a Program (with the condition as a predicate on
// outcome tuples), and the build of its harness (generate, compile and disassemble on a Workbench, check the
// SASS of every role).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "checker/Outcome.hpp"
#include "checker/TestRunner.hpp"
#include "validate/HardwareTest.hpp"
#include "validate/Report.hpp"
#include "validate/SassChecker.hpp"
#include "validate/Workbench.hpp"

namespace ptxmm::validate {

struct ModelCheck {
  frontend::Program program;
  checker::TestResult result;
  std::vector<checker::ObservedKey> observed;
  ModelView view;

  /// The condition's proposition holds in `values` (keys in view.keys order).
  bool satisfies(const Values& values) const;
  /// `values` is what the condition asks about: the proposition, or its negation for forall.
  bool target(const Values& values) const;
  /// The model is complete and permits no target state: the test is a forbidden one.
  bool forbidsTarget() const;
  /// Some permitted state is a target state.
  bool allowsTarget() const;
};

/// Runs the model on `program`. Throws model::UserError for a program the unroller rejects.
ModelCheck checkModel(const model::CatModel& model, const frontend::Program& program, const checker::RunOptions& options);

/// The SASS of a role does not match its litmus code: the test is refused.
struct SassRefusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Build {
  std::string dir;
  std::string binary;
  std::string sassHash;
  int anchors = 0;                 // memory instructions and barriers verified
  std::vector<std::string> notes;  // from the SASS check
};

/// Generates the harness of `hw`, builds it on `bench` in `dir` and checks its SASS. Throws SassRefusal or
/// ToolFailure.
Build buildHarness(const HardwareTest& hw, const ModelView& model, Workbench& bench, const std::string& dir);

/// The expected SASS of role `r`, in program order.
std::vector<ExpectedInstruction> expectedInstructions(const HardwareTest& hw, int r);

/// A file-system-safe form of a test name.
std::string safeName(const std::string& name);

}  // namespace ptxmm::validate
