// Differential testing of the engines (EngineRegistry.hpp): the reference engine (the explicit simulator) and
// the solver engine (Z3, with its cross-check on) must agree on status, the condition's claim, the permitted
// states, the flags and the racing instruction pairs with their kinds. The solver must also give the same answer
// when the test's threads are written in the reverse order (its results may depend neither on thread nor on
// event numbering).
#pragma once

#include <functional>
#include <string>

#include "checker/TestRunner.hpp"
#include "frontend/Program.hpp"

namespace ptxmm::checker {

struct EngineComparison {
  TestResult reference;  // the reference engine's
  TestResult solver;     // the solver engine's
  bool inconclusive = false;  // an engine stopped at a resource limit: nothing to compare
  std::string limit;          // when inconclusive: which run stopped, and why
  std::string difference;     // empty when the engines agree
};

/// Renumbers the threads that register initialisations, the condition, the filter and `locations [...]` refer to: thread t
/// becomes newIndex(t). The caller moves the threads themselves.
void renumberThreads(frontend::Program& program, const std::function<int(int)>& newIndex);

/// `program` with its thread columns in the reverse order; every thread keeps its name and placement.
frontend::Program withThreadsReversed(const frontend::Program& program);

/// Runs both engines on one program (the solver also on it with its threads reversed) and describes how they
/// differ.
EngineComparison compareEngines(const model::CatModel& model, const frontend::Program& program,
                                const RunOptions& options);

}  // namespace ptxmm::checker
