// Differential testing of the two engines: the explicit engine is the reference, the Z3 engine (with its
// cross-check on) must agree with it on status, the condition's claim, the permitted states, the flags and the
// racing instruction pairs with their kinds.
#pragma once

#include <string>

#include "checker/TestRunner.hpp"
#include "frontend/Program.hpp"

namespace ptxmm::checker {

struct EngineComparison {
  TestResult reference;  // explicit
  TestResult z3;
  bool inconclusive = false;  // an engine stopped at a resource limit: nothing to compare
  std::string difference;     // empty when the engines agree
};

/// Runs both engines on one program and describes how they differ.
EngineComparison compareEngines(const model::CatModel& model, const frontend::Program& program,
                                const RunOptions& options);

}  // namespace ptxmm::checker
