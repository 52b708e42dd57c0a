// The Z3 engine: the program and the cat model as one formula; permitted final states by AllSAT over the
// observed values (a blocking clause per state found), condition claims as single queries. It ranges over
// exactly the executions the explicit engine enumerates, and reports UNKNOWN in the same situations (an
// execution beyond the unrolling bound, values out of thin air) plus the solver's own `unknown`/timeout.
#pragma once

#include "checker/Engine.hpp"

namespace ptxmm::checker {

class Z3Engine : public Engine {
 public:
  /// Uses every field of `options` (seed, cross-check, state listing, explanations, limits, races).
  Z3Engine(const model::CatModel& model, EngineOptions options);
  TestResult run(const frontend::Program& program, const model::EventGraph& graph) override;
  std::string name() const override { return "z3"; }

 private:
  const model::CatModel& model_;
  EngineOptions options_;
};

}  // namespace ptxmm::checker
