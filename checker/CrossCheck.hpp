// The cross-check of the Z3 engine against the reference: a decoded witness is rebuilt as an explicit
// Execution — its paths must be paths the explicit engine enumerates, its values must satisfy their
// assumptions, its barrier matching must be one the explicit engine would choose — and every axiom of the model
// is re-evaluated on bit matrices; its outcome must be one of the execution's final states.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/Outcome.hpp"
#include "checker/PathEnumerator.hpp"
#include "checker/Witness.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker {

/// Why the explicit evaluator disagrees with the witness, or nullopt when it agrees.
std::optional<std::string> crossCheck(const model::CatModel& model, const model::EventGraph& graph,
                                      const std::vector<std::vector<ThreadPath>>& paths,
                                      const std::vector<ObservedKey>& keys, const Witness& witness);

}  // namespace ptxmm::checker
