// What the cat model says about two conflicting accesses on their own: whether they are morally strong (`ms`,
// spec §2.3) and, if they race, of which kind (`race-proxy`, `race-scope`, `race-unsync` of ptx-core.cat). Both
// are static properties of the pair — its two events' tags, how their threads sit in the scope tree, and whether
// they name the same bytes — so the answer is computed once per such signature by evaluating the model's own
// definitions on a canonical two-event execution (each read reading the initial value), and cached. The model
// stays data: a change of `ms` or of the race kinds in the cat file changes these answers.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "checker/kernel/KernelGraph.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker::kernel {

struct PairVerdict {
  bool morallyStrong = false;
  bool eventuallyVisible = true;  // the model's `eventually-visible` (memory fairness; absent: every write is)
  std::string kind;  // the race kind when they race with nothing ordering them ("no synchronisation", ...)
};

class PairOracle {
 public:
  /// Throws model::UserError when the model lacks `ms` or a race-kind definition.
  PairOracle(const model::CatModel& model, const KernelGraph& kernel);

  /// The verdict for conflicting events a and b, which name the same bytes (complete overlap).
  const PairVerdict& verdict(int a, int b);
  /// How many distinct signatures were evaluated (for statistics).
  std::size_t evaluated() const { return cache_.size(); }

 private:
  std::string signature(int a, int b) const;
  PairVerdict evaluate(int a, int b) const;

  const model::CatModel& model_;
  const KernelGraph& k_;
  std::map<std::string, PairVerdict> cache_;
};

}  // namespace ptxmm::checker::kernel
