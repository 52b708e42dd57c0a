// What the liveness check cannot decide about cluster barriers. barrier.cluster.wait waits for every non-exited
// thread of the cluster, and a thread that never arrives releases the barrier only when it exits (PTX ISA,
// barrier.cluster and exit). The unrolled program counts the threads that arrive (frontend/lower, the barrier as
// an RMW count), so a thread of the cluster that never arrives and never exits either — it waits for something
// the waiter does after its wait — would let the waiter through here while on the GPU both wait forever. Such
// programs get no "terminates" verdict: the check says which thread makes it UNKNOWN.
#pragma once

#include <optional>
#include <string>

#include "model/EventGraph.hpp"

namespace ptxmm::checker::liveness {

/// The reason a "terminates" verdict cannot be given for `graph`: a cluster whose barrier some threads wait on
/// has a thread that never arrives at it. Nothing when every thread of such a cluster arrives.
std::optional<std::string> clusterExitGap(const model::EventGraph& graph);

}  // namespace ptxmm::checker::liveness
