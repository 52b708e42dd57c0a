// Finds clusters in which a thread never arrives at the cluster barrier others wait on (ClusterExitGap.hpp).
#include "checker/liveness/ClusterExitGap.hpp"

#include <set>

namespace ptxmm::checker::liveness {

std::optional<std::string> clusterExitGap(const model::EventGraph& graph) {
  std::set<int> waited;      // clusters with a barrier.cluster.wait
  std::set<int> arrivesIn;   // threads with a barrier.cluster.arrive (its write half)
  for (const auto& e : graph.events) {
    if (e.thread < 0 || !e.is(model::Tag::CB)) continue;
    if (e.is(model::Tag::W)) arrivesIn.insert(e.thread);
    if (e.assume) waited.insert(graph.threads[static_cast<std::size_t>(e.thread)].cluster);
  }
  for (std::size_t t = 0; t < graph.threads.size(); ++t)
    if (waited.count(graph.threads[t].cluster) && !arrivesIn.count(static_cast<int>(t)))
      return graph.threads[t].name + " never arrives at the barrier.cluster its cluster waits on: PTX releases that "
             "barrier only once " + graph.threads[t].name + " exits, which ptxmm does not model, so a wait cycle "
             "through it could be missed";
  return std::nullopt;
}

}  // namespace ptxmm::checker::liveness
