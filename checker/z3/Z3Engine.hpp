// The Z3 engine: the program and the cat model as one formula; permitted final states by AllSAT over the
// observed values (a blocking clause per state found), condition claims as single queries. It ranges over
// exactly the executions the explicit engine enumerates, and reports UNKNOWN in the same situations (an
// execution beyond the unrolling bound, values out of thin air) plus the solver's own `unknown`/timeout.
#pragma once

#include "checker/Engine.hpp"

namespace ptxmm::checker {

struct Z3Options {
  unsigned seed = 0;          // the solver's random seed; results must not depend on it
  bool crossCheck = false;    // re-decide every model with the explicit evaluator (fails loudly)
  bool listStates = true;     // false: decide the condition's claim with one query, list no states
  bool explain = false;       // for a forbidden outcome the condition asks about, find the axioms forbidding it
};

class Z3Engine : public Engine {
 public:
  Z3Engine(const model::CatModel& model, EngineOptions limits, Z3Options options);
  TestResult run(const frontend::Program& program, const model::EventGraph& graph) override;
  std::string name() const override { return "z3"; }

 private:
  const model::CatModel& model_;
  EngineOptions limits_;
  Z3Options options_;
};

}  // namespace ptxmm::checker
