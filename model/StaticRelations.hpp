// The static base relations (those of Stage::Static except data and ctrl, which depend on the control-flow
// path) between two events of an EventGraph, assuming both happen. Both engines build their relations from
// this one definition.
#pragma once

#include "model/EventGraph.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::model {

/// Whether static base relation `rel` relates events a and b (global ids) when both happen on one execution.
/// Data and ctrl are path-dependent and not answered here (always false).
bool staticRelation(const EventGraph& graph, BaseRel rel, int a, int b);

/// The static base relations staticRelation answers.
const std::vector<BaseRel>& staticRelations();

}  // namespace ptxmm::model
