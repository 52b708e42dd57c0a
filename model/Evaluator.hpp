// The explicit evaluator: computes every definition of a cat model on one candidate execution (bit matrices)
// and decides its checks. Definitions are cached and recomputed only when a base relation of their stage
// changes, so the explicit engine pays for `cause` once per reads-from choice, not once per coherence order;
// checks whose stage is already fixed can be decided early to prune whole subtrees of choices.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "model/Candidate.hpp"
#include "model/Deadline.hpp"
#include "model/DefinitionOrder.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::model {

using Value = std::variant<BitSet, BitMatrix>;

class Evaluator {
 public:
  /// The latest stage each definition and check of `model` depends on.
  explicit Evaluator(const CatModel& model);

  /// Starts a new candidate (all cached values are dropped). The candidate must outlive the evaluation.
  void reset(const Candidate& candidate);
  /// Declares that the base relations of stage `from` and later changed in the candidate.
  void invalidate(Stage from);
  /// Every expression evaluated from now on first checks `deadline` (throws LimitReached once it has passed):
  /// one candidate of a large test can take longer than a whole --timeout.
  void setDeadline(const Deadline& deadline) { deadline_ = deadline; }

  /// The first check (not flag) of stage <= `upTo` that fails, if any.
  std::optional<std::size_t> firstFailingCheck(Stage upTo);
  /// Indices of the failing checks (not flags), all of them, for explanations.
  std::vector<std::size_t> failingChecks();
  /// Indices of the flags that are raised.
  std::vector<std::size_t> raisedFlags();
  /// Whether check i holds (for a flag: whether it is raised).
  bool holds(std::size_t check);

  /// The value of a definition on the current candidate.
  const Value& definition(std::size_t index);
  /// The value of an arbitrary expression of the model on the current candidate.
  Value evaluate(const RelExpr& e);

  Stage checkStage(std::size_t check) const { return checkStages_[check]; }
  /// The latest stage an expression of the model depends on.
  Stage stageOf(const RelExpr& e) const;
  const CatModel& model() const { return model_; }

 private:
  void compute(std::size_t index);
  void computeRecGroup(std::size_t group);
  bool test(const Check& c, const Value& v, const std::optional<BitMatrix>& pairwise);

  const CatModel& model_;
  const Candidate* candidate_ = nullptr;
  std::vector<Stage> defStages_;
  std::vector<Stage> checkStages_;
  std::vector<std::optional<Value>> cache_;
  DefinitionOrder order_;
  std::vector<std::optional<bool>> checkCache_;
  Deadline deadline_;
};

}  // namespace ptxmm::model
