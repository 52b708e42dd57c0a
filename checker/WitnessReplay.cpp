// Rebuilding and re-deciding witnesses (WitnessReplay.hpp).
#include "checker/WitnessReplay.hpp"

#include <algorithm>

#include "checker/Odometer.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;

namespace {

// The Execution of the witness's events over one path per thread whose assumptions the values satisfy. Several
// paths can perform the same events (a branch to the next instruction): each combination is tried.
std::unique_ptr<Execution> rebuild(const model::EventGraph& graph, const std::vector<std::vector<ThreadPath>>& paths,
                                   const Witness& w, std::string& problem) {
  std::vector<std::vector<const ThreadPath*>> candidates(paths.size());
  for (std::size_t t = 0; t < paths.size(); ++t) {
    for (const auto& p : paths[t])
      if (p.events == w.threadEvents[t]) candidates[t].push_back(&p);
    if (candidates[t].empty()) {
      problem = "thread " + graph.threads[t].name + " follows a path the explicit engine does not enumerate";
      return nullptr;
    }
  }
  problem = "the paths' branch outcomes do not follow from the values read";
  std::vector<std::size_t> choice(paths.size(), 0);
  do {
    std::vector<const ThreadPath*> chosen;
    for (std::size_t t = 0; t < paths.size(); ++t) chosen.push_back(candidates[t][choice[t]]);
    auto x = std::make_unique<Execution>(graph, chosen);
    std::vector<std::size_t> source(x->reads().size(), SIZE_MAX);
    for (auto [write, read] : w.rf) {
      const auto r = x->local(read), wr = x->local(write);
      if (!r || !wr) {
        problem = "rf relates an event that does not happen";
        return nullptr;
      }
      const auto k = std::find(x->reads().begin(), x->reads().end(), *r) - x->reads().begin();
      source[static_cast<std::size_t>(k)] = *wr;
    }
    if (std::find(source.begin(), source.end(), SIZE_MAX) != source.end()) {
      problem = "a read has no rf source";
      return nullptr;
    }
    if (x->setReadsFrom(source) == Execution::Values::Consistent) return x;
  } while (advance(choice, [&](std::size_t t) { return candidates[t].size(); }));
  return nullptr;
}

}  // namespace

Replay replay(const model::CatModel& model, const model::EventGraph& graph,
              const std::vector<std::vector<ThreadPath>>& paths, const Witness& w) {
  Replay out;
  auto x = rebuild(graph, paths, w, out.problem);
  if (!x) return out;
  BitMatrix syncbar(x->size());
  for (auto [a, b] : w.syncbar) syncbar.set(*x->local(a), *x->local(b));
  const auto uses = staticUses(graph);
  const auto matchings = barrierMatchings(*x->arrivals(), x->barrierContext(uses), x->size());
  if (std::none_of(matchings.begin(), matchings.end(), [&](const BarrierMatching& m) { return m.syncbar == syncbar; })) {
    out.problem = "the barrier matching is not one the explicit engine enumerates";
    return out;
  }
  x->candidate().rel(BaseRel::Syncbar) = syncbar;
  std::vector<std::size_t> order;
  for (int f : w.fenceOrder) order.push_back(*x->local(f));
  if (order.size() != x->scFences().size()) {
    out.problem = "the Fence-SC order does not cover every fence.sc";
    return out;
  }
  x->setFenceOrder(order);
  BitMatrix co(x->size());
  for (auto [a, b] : w.co) co.set(*x->local(a), *x->local(b));
  if (!(co.transitiveClosure() == co) || !co.irreflexive()) {
    out.problem = "co is not a strict partial order";
    return out;
  }
  for (const auto& writes : x->writesPerLocation())
    for (std::size_t k = 1; k < writes.size(); ++k)
      if (!co.test(writes[0], writes[k])) {
        out.problem = "the initial write is not co-before every write";
        return out;
      }
  x->candidate().rel(BaseRel::Co) = co;
  model::Evaluator eval(model);
  eval.reset(x->candidate());
  out.failingChecks = eval.failingChecks();
  if (!out.failingChecks.empty()) out.problem = "rejected by " + model.checks[out.failingChecks[0]].name;
  out.execution = std::move(x);
  return out;
}

Witness witnessOf(const Execution& x, const std::vector<std::int64_t>& outcome) {
  Witness w;
  for (const ThreadPath* p : x.paths()) w.threadEvents.push_back(p->events);
  const auto& c = x.candidate();
  for (auto [a, b] : c.rel(BaseRel::Rf).pairs()) w.rf.emplace_back(x.global(a), x.global(b));
  for (auto [a, b] : c.rel(BaseRel::Co).pairs()) w.co.emplace_back(x.global(a), x.global(b));
  for (auto [a, b] : c.rel(BaseRel::Syncbar).pairs()) w.syncbar.emplace_back(x.global(a), x.global(b));
  auto fences = x.scFences();
  const auto& sf = c.rel(BaseRel::SyncFence);
  std::sort(fences.begin(), fences.end(), [&](std::size_t a, std::size_t b) { return sf.test(a, b); });
  for (auto f : fences) w.fenceOrder.push_back(x.global(f));
  w.outcome = outcome;
  return w;
}

std::optional<std::string> crossCheck(const model::CatModel& model, const model::EventGraph& graph,
                                      const std::vector<std::vector<ThreadPath>>& paths,
                                      const std::vector<ObservedKey>& keys, const Witness& w) {
  const Replay r = replay(model, graph, paths, w);
  if (!r.execution || !r.failingChecks.empty()) return r.problem;
  const auto finals = r.execution->finalStates(keys);
  if (std::find(finals.begin(), finals.end(), w.outcome) == finals.end())
    return "the outcome is not a final state of the execution";
  return std::nullopt;
}

}  // namespace ptxmm::checker
