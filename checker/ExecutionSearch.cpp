// The staged enumeration of candidate executions (ExecutionSearch.hpp).
#include "checker/ExecutionSearch.hpp"

#include <algorithm>

#include "checker/Odometer.hpp"
#include "model/GraphAlgorithms.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;
using model::Stage;

ExecutionSearch::ExecutionSearch(const model::CatModel& model, const EngineOptions& options,
                                 const model::EventGraph& graph)
    : options_(options), g_(graph), eval_(model), deadline_(engineDeadline(options)), uses_(staticUses(graph)) {
  eval_.setDeadline(deadline_);
}

void ExecutionSearch::run(const std::vector<std::vector<ThreadPath>>& paths, const SearchVisitor& visitor) {
  visitor_ = &visitor;
  if (std::any_of(paths.begin(), paths.end(), [](const auto& p) { return p.empty(); })) return;
  std::vector<std::size_t> choice(paths.size(), 0);
  try {
    do {
      std::vector<const ThreadPath*> chosen;
      for (std::size_t t = 0; t < choice.size(); ++t) chosen.push_back(&paths[t][choice[t]]);
      if (visitor.admit && !visitor.admit(chosen)) continue;
      Execution x(g_, std::move(chosen));
      pathCombination(x);
    } while (advance(choice, [&](std::size_t t) { return paths[t].size(); }));
  } catch (const model::LimitReached& e) {  // the evaluator's deadline, inside one candidate
    throw SearchLimit{e.what()};
  }
}

void ExecutionSearch::tick() {
  ++candidates_;
  if (options_.maxCandidates && candidates_ > options_.maxCandidates)
    throw SearchLimit{"the explicit engine examined its limit of " + std::to_string(options_.maxCandidates) +
                      " candidate executions"};
  // Every candidate: one evaluation of a large test takes longer than reading the clock (issue 16 H1b).
  if (deadline_.passed())
    throw SearchLimit{timeoutReason(deadline_.seconds())};
}

// A check of an earlier stage fails: every later choice is rejected with it.
bool ExecutionSearch::rejectedAt(Stage stage) {
  if (!eval_.firstFailingCheck(stage)) return false;
  tick();
  return true;
}

void ExecutionSearch::pathCombination(Execution& x) {
  eval_.reset(x.candidate());
  if (eval_.firstFailingCheck(Stage::Static)) return;
  std::vector<std::vector<std::size_t>> sources;
  for (std::size_t r : x.reads()) sources.push_back(x.sourcesOf(r));
  std::vector<std::size_t> choice(sources.size(), 0), rf(sources.size());
  do {
    for (std::size_t k = 0; k < choice.size(); ++k) rf[k] = sources[k][choice[k]];
    const Execution::Values values = x.setReadsFrom(rf);
    if (values == Execution::Values::Contradicted) continue;
    eval_.invalidate(Stage::ReadsFrom);
    if (rejectedAt(Stage::ReadsFrom)) continue;
    const auto arrivals = x.arrivals();
    if (!arrivals) {
      if (visitor_->barrierThinAir) visitor_->barrierThinAir();
      continue;
    }
    for (auto& matching : barrierMatchings(*arrivals, x.barrierContext(uses_), x.size())) {
      // An aligned barrier reached from divergent code has no defined outcome; the liveness check reports it.
      if (!matching.divergent.empty() && !visitor_->keepDivergent) continue;
      x.candidate().rel(BaseRel::Syncbar) = std::move(matching.syncbar);
      eval_.invalidate(Stage::Barrier);
      if (!rejectedAt(Stage::Barrier)) fenceOrders(x, values == Execution::Values::ThinAir, matching.divergent);
    }
  } while (advance(choice, [&](std::size_t k) { return sources[k].size(); }));
}

void ExecutionSearch::fenceOrders(Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent) {
  std::vector<std::size_t> fences = x.scFences();
  do {
    x.setFenceOrder(fences);
    eval_.invalidate(Stage::FenceOrder);
    if (!rejectedAt(Stage::FenceOrder)) coherenceOrders(x, thinAir, divergent);
  } while (std::next_permutation(fences.begin(), fences.end()));
}

void ExecutionSearch::coherenceOrders(Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent) {
  const auto& writes = x.writesPerLocation();
  std::vector<const std::vector<model::Order>*> orders;
  for (std::size_t p = 0; p < writes.size(); ++p) {
    const int m = static_cast<int>(writes[p].size()) - 1;
    if (m > model::kMaxOrderedElements)
      throw SearchLimit{"location " + g_.physicalNames[p] + " has " + std::to_string(m) +
                        " writes: more coherence orders than the explicit engine enumerates (limit " +
                        std::to_string(model::kMaxOrderedElements) + ")"};
    orders.push_back(&model::strictPartialOrders(m));
  }
  std::vector<std::size_t> choice(writes.size(), 0);
  do {
    tick();
    BitMatrix co(x.size());
    for (std::size_t p = 0; p < writes.size(); ++p) {
      const auto& w = writes[p];
      for (std::size_t k = 1; k < w.size(); ++k) co.set(w[0], w[k]);
      for (auto [a, b] : (*orders[p])[choice[p]])
        co.set(w[static_cast<std::size_t>(a) + 1], w[static_cast<std::size_t>(b) + 1]);
    }
    x.candidate().rel(BaseRel::Co) = std::move(co);
    eval_.invalidate(Stage::Coherence);
    if (!eval_.firstFailingCheck(Stage::Coherence)) visitor_->consistent(x, thinAir, divergent);
  } while (advance(choice, [&](std::size_t p) { return orders[p]->size(); }));
}

}  // namespace ptxmm::checker
