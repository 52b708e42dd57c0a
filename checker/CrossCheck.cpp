// Re-deciding a decoded witness with the explicit machinery (CrossCheck.hpp).
#include "checker/CrossCheck.hpp"

#include <algorithm>

#include "checker/Execution.hpp"
#include "checker/GraphAlgorithms.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;

std::optional<std::string> crossCheck(const model::CatModel& model, const model::EventGraph& graph,
                                      const std::vector<std::vector<ThreadPath>>& paths,
                                      const std::vector<ObservedKey>& keys, const Witness& w) {
  std::vector<const ThreadPath*> chosen;
  for (std::size_t t = 0; t < paths.size(); ++t) {
    const auto it = std::find_if(paths[t].begin(), paths[t].end(),
                                 [&](const ThreadPath& p) { return p.events == w.threadEvents[t]; });
    if (it == paths[t].end())
      return "thread " + graph.threads[t].name + " follows a path the explicit engine does not enumerate";
    chosen.push_back(&*it);
  }
  Execution x(graph, chosen);
  std::vector<std::size_t> source(x.reads().size(), SIZE_MAX);
  for (auto [write, read] : w.rf) {
    const auto r = x.local(read), wr = x.local(write);
    if (!r || !wr) return "rf relates an event that does not happen";
    const auto k = std::find(x.reads().begin(), x.reads().end(), *r) - x.reads().begin();
    source[static_cast<std::size_t>(k)] = *wr;
  }
  if (std::find(source.begin(), source.end(), SIZE_MAX) != source.end()) return "a read has no rf source";
  if (x.setReadsFrom(source) != Execution::Values::Consistent)
    return "the paths' branch outcomes do not follow from the values read";

  BitMatrix syncbar(x.size());
  for (auto [a, b] : w.syncbar) syncbar.set(*x.local(a), *x.local(b));
  const auto arrivals = x.arrivals();
  const auto matchings = barrierMatchings(*arrivals, x.size());
  if (std::find(matchings.begin(), matchings.end(), syncbar) == matchings.end())
    return "the barrier matching is not one the explicit engine enumerates";
  x.candidate().rel(BaseRel::Syncbar) = syncbar;

  std::vector<std::size_t> order;
  for (int f : w.fenceOrder) order.push_back(*x.local(f));
  if (order.size() != x.scFences().size()) return "the Fence-SC order does not cover every fence.sc";
  x.setFenceOrder(order);

  BitMatrix co(x.size());
  for (auto [a, b] : w.co) co.set(*x.local(a), *x.local(b));
  if (!(co.transitiveClosure() == co) || !co.irreflexive()) return "co is not a strict partial order";
  for (const auto& writes : x.writesPerLocation())
    for (std::size_t k = 1; k < writes.size(); ++k)
      if (!co.test(writes[0], writes[k])) return "the initial write is not co-before every write";
  x.candidate().rel(BaseRel::Co) = co;

  model::Evaluator eval(model, maximalCliques);
  eval.reset(x.candidate());
  const auto failing = eval.failingChecks();
  if (!failing.empty()) return "the explicit evaluator rejects the execution by " + model.checks[failing[0]].name;
  const auto finals = x.finalStates(keys);
  if (std::find(finals.begin(), finals.end(), w.outcome) == finals.end())
    return "the outcome is not a final state of the execution";
  return std::nullopt;
}

}  // namespace ptxmm::checker
