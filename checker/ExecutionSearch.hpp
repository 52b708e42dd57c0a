// The explicit enumeration of candidate executions, shared by the explicit engine (which lists final states) and
// the liveness check (which looks for stuck executions). Choices are made stage by stage — one path per thread,
// reads-from, barrier generations, Fence-SC order, coherence — and after each stage the checks of the model that
// depend on nothing later are decided, so a failing check prunes every later choice at once. That is an
// optimisation only: the consistent executions are exactly the candidates on which every check holds; each is
// handed to the caller's visitor.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checker/Engine.hpp"
#include "checker/Execution.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker {

/// Thrown out of ExecutionSearch::run when a limit of EngineOptions is reached.
struct SearchLimit {
  std::string reason;
};

/// What the caller does with the search.
struct SearchVisitor {
  /// Whether to look at this choice of one path per thread at all (null: every choice).
  std::function<bool(const std::vector<const ThreadPath*>&)> admit;
  /// A consistent candidate (rf, barrier generations, Fence-SC order and co chosen); `thinAir`: its values depend
  /// on themselves; `divergent`: an aligned barrier of it was completed by an exit (only with keepDivergent).
  std::function<void(const Execution&, bool thinAir, const std::vector<DivergentRelease>& divergent)> consistent;
  /// A reads-from choice whose barrier operands cannot be evaluated (thin air).
  std::function<void()> barrierThinAir;
  /// Also visit executions whose barrier generations complete an aligned barrier through an exit.
  bool keepDivergent = false;
};

class ExecutionSearch {
 public:
  ExecutionSearch(const model::CatModel& model, const EngineOptions& options, const model::EventGraph& graph);

  /// Visits every consistent candidate over `paths` (per thread, the paths to choose from); throws SearchLimit.
  void run(const std::vector<std::vector<ThreadPath>>& paths, const SearchVisitor& visitor);

  /// The evaluator, set to the candidate being visited (definitions and raised flags of the model).
  model::Evaluator& evaluator() { return eval_; }

 private:
  void tick();
  bool rejectedAt(model::Stage stage);
  void pathCombination(Execution& x);
  void fenceOrders(Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent);
  void coherenceOrders(Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent);

  const EngineOptions& options_;
  const model::EventGraph& g_;
  model::Evaluator eval_;
  model::Deadline deadline_;
  std::uint64_t candidates_ = 0;
  std::vector<StaticUse> uses_;
  const SearchVisitor* visitor_ = nullptr;
};

}  // namespace ptxmm::checker
