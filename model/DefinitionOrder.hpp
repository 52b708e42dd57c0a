// Computing a model's definitions without recursing through them: `let r1 = r0 ... let r20000 = r19999` is a chain
// as long as the model, and a consumer that evaluates a reference by evaluating the definition first (the
// evaluator, the static bounds, the Z3 encoding) recursed once per `let` and overflowed the stack (issue 16 C3a).
// DefinitionOrder computes, before a definition, every definition it needs that is not computed yet, from an
// explicit stack, so computing one definition only recurses as deep as its own expression (bounded by the parser).
#pragma once

#include <cstddef>
#include <vector>

#include "model/RelationIR.hpp"

namespace ptxmm::model {

class DefinitionOrder {
 public:
  explicit DefinitionOrder(const CatModel& model);

  /// Calls `compute(d)` for each definition d that `index` needs, directly or not, with `computed(d)` false,
  /// each after those it needs, and last for `index` itself when it is not computed. The members of a `let rec`
  /// are computed together: compute(d) for one of them must compute them all.
  template <class Computed, class Compute>
  void ensure(std::size_t index, Computed computed, Compute compute) const {
    if (computed(index)) return;
    struct Frame {
      std::size_t def;
      std::size_t next;  // the next of needs_[def] to look at
    };
    std::vector<Frame> stack{{index, 0}};
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < needs_[f.def].size()) {
        const std::size_t d = needs_[f.def][f.next++];
        if (!computed(d)) stack.push_back({d, 0});
        continue;
      }
      const std::size_t d = f.def;
      stack.pop_back();
      if (!computed(d)) compute(d);
    }
  }

 private:
  // The definitions each definition refers to, outside its own `let rec` group (for a member: those of every
  // member of the group). Definitions only refer to earlier ones outside their group, so this is acyclic.
  std::vector<std::vector<std::size_t>> needs_;
};

}  // namespace ptxmm::model
