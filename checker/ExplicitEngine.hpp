// The explicit engine, ptxmm's reference simulator: it enumerates every candidate execution — one control-flow
// path per thread, a reads-from choice per read, barrier generations, a Fence-SC order and a coherence order
// (a strict partial order per location, W0 first) — evaluates the cat model on each with bit matrices, and
// collects the final states of the consistent ones. Exponential, and simple enough to trust.
#pragma once

#include "checker/Engine.hpp"

namespace ptxmm::checker {

class ExplicitEngine : public Engine {
 public:
  ExplicitEngine(const model::CatModel& model, EngineOptions options);
  TestResult run(const frontend::Program& program, const model::EventGraph& graph) override;
  std::string name() const override { return "explicit"; }

 private:
  const model::CatModel& model_;
  EngineOptions options_;
};

}  // namespace ptxmm::checker
