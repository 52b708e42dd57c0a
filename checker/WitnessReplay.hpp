// Replaying a witness: a candidate execution given as plain choices (paths, rf, co, Fence-SC order, barrier
// matching) is rebuilt as an explicit Execution and re-decided with the explicit evaluator. The Z3 engine's
// cross-check uses it on every model; races, explanations and witness graphs use it to show an execution.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/Execution.hpp"
#include "checker/Witness.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker {

struct Replay {
  std::unique_ptr<Execution> execution;  // null when the witness is not a candidate execution
  std::string problem;                   // why not, or which check rejects it
  std::vector<std::size_t> failingChecks;  // checks (not flags) of the model the execution violates
};

/// Rebuilds the witness as an Execution over `paths` (the explicit engine's paths of each thread) and
/// evaluates every check of `model` on it.
Replay replay(const model::CatModel& model, const model::EventGraph& graph,
              const std::vector<std::vector<ThreadPath>>& paths, const Witness& witness);

/// The witness of an explicit Execution (the inverse of replay).
Witness witnessOf(const Execution& execution, const std::vector<std::int64_t>& outcome);

/// The Z3 cross-check: why the explicit machinery disagrees with a decoded witness that the solver found
/// consistent with outcome `witness.outcome`, or nullopt when it agrees.
std::optional<std::string> crossCheck(const model::CatModel& model, const model::EventGraph& graph,
                                      const std::vector<std::vector<ThreadPath>>& paths,
                                      const std::vector<ObservedKey>& keys, const Witness& witness);

}  // namespace ptxmm::checker
