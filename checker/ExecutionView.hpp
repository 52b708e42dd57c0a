// Showing one execution to a person: as text (events per thread with the values they read or wrote, where
// each read reads from, the coherence order) and as a Graphviz DOT graph (threads as clusters; po, rf, co and —
// when the model defines them — fr and sw edges; the steps of a violated axiom or a race highlighted in red, the
// events they join framed in red; long instruction labels wrapped). An mbarrier's value is shown as its phase,
// pending and expected arrivals and tx-count, not as the integer that packs them.
#pragma once

#include <string>
#include <vector>

#include "checker/Execution.hpp"
#include "checker/Violation.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker {

/// The name an event gets in reports: e<id> (global id), or "init x" for an initial write.
std::string eventName(const Execution& x, std::size_t local);

/// Events per thread with values and rf sources, then the coherence order.
std::string describeExecution(const Execution& x, const model::EventGraph& graph);

/// A step as text: "e6 -fr-> e3".
std::string describeSteps(const Execution& x, const std::vector<Step>& steps, bool withVia);

/// The DOT graph of an execution; `highlight` edges are drawn bold red with their relation as label.
std::string toDot(const Execution& x, const model::EventGraph& graph, model::Evaluator& evaluator,
                  const std::string& title, const std::vector<Step>& highlight);

}  // namespace ptxmm::checker
