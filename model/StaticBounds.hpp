// Static may-analysis over the relation IR: from upper bounds of the base sets and relations (which events
// may exist, which pairs may be in rf, co, ...), an upper bound of every definition of a cat model. The Z3
// encoder creates terms only for the pairs inside these bounds; everything outside is known to be absent.
#pragma once

#include <optional>
#include <vector>

#include "model/Candidate.hpp"
#include "model/DefinitionOrder.hpp"
#include "model/Evaluator.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::model {

class StaticBounds {
 public:
  /// `base` holds the upper bounds of the base sets and relations over all events that may exist.
  StaticBounds(const CatModel& model, const Candidate& base);

  /// The upper bound of a definition.
  const Value& definition(std::size_t index);
  /// The upper bound of any expression of the model.
  Value bound(const RelExpr& e);

 private:
  void compute(std::size_t index);
  const CatModel& model_;
  const Candidate& base_;
  std::vector<std::optional<Value>> cache_;
  DefinitionOrder order_;
};

}  // namespace ptxmm::model
