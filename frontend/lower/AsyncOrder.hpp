// The order of asynchronous operations within a thread [§2.2, §2.9, §4.6-§4.13]: issue order (an async access
// follows what its thread did before issuing it, except wgmma and tcgen05, ordered by their own fences),
// retirement by async-groups and bulk-groups, the arrive-on of cp.async.mbarrier.arrive and tcgen05.commit
// after the operations they track, tcgen05's pipelined pairs and fences, and wgmma.fence. Adds pairs to the
// EventGraph's iss and adone lists. Part of the unroller.
#pragma once

#include <vector>

#include "frontend/lower/InstructionSemantics.hpp"

namespace ptxmm::frontend {

/// Orders one thread's asynchronous operations; `records[n]` describes node n (nodes in topological order).
void orderAsync(const model::ThreadGraph& thread, const std::vector<AsyncRecord>& records, model::EventGraph& graph);

}  // namespace ptxmm::frontend
