// The model half of the Z3 encoding: every definition of a cat model as a symbolic set or relation over the
// program encoding's base sets and relations, built by an exhaustive visitor over the relation IR and confined
// to the static may-bounds. Closures are Warshall formulas, `let rec` groups are unrolled Kleene iterations up
// to the size of their bound (so the least fixpoint is exact), acyclicity axioms use integer ranks, and a
// `pairwise` axiom is asserted on every maximal clique of its (static) relation.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "checker/z3/ProgramEncoding.hpp"
#include "model/DefinitionOrder.hpp"
#include "model/RelationIR.hpp"
#include "model/StaticBounds.hpp"

namespace ptxmm::checker::z3enc {

using Sym = std::variant<SymSet, SymRel>;

struct NamedFormula {
  std::size_t check;  // index into CatModel::checks
  std::string name;
  z3::expr holds;
};

class ModelEncoding {
 public:
  ModelEncoding(z3::context& ctx, const model::CatModel& model, const ProgramEncoding& program);

  /// Why the model cannot be encoded, if so (e.g. `pairwise` over a relation that is not static).
  const std::optional<std::string>& unsupported() const { return unsupported_; }
  /// The axioms: formulas that hold in every consistent execution, named as in the model.
  const std::vector<NamedFormula>& axioms() const { return axioms_; }
  /// The flags: formulas that hold when the flag is raised.
  const std::vector<NamedFormula>& flags() const { return flags_; }
  /// The symbolic value of a definition of the model.
  const Sym& definition(std::size_t index);

 private:
  void compute(std::size_t index);
  Sym encode(const model::RelExpr& e);
  z3::expr encodeCheck(std::size_t index);
  z3::expr acyclic(const SymRel& r, const std::string& tag);
  bool pointwiseStatic(const model::RelExpr& e) const;

  z3::context& ctx_;
  const model::CatModel& model_;
  const ProgramEncoding& program_;
  model::StaticBounds bounds_;
  std::vector<std::optional<Sym>> cache_;
  model::DefinitionOrder order_;
  std::vector<char> pointwiseDefs_;  // pointwiseStatic of each definition, computed in order (a `let rec`: false)
  std::optional<std::string> unsupported_;
  std::vector<NamedFormula> axioms_;
  std::vector<NamedFormula> flags_;
  int ranks_ = 0;
};

}  // namespace ptxmm::checker::z3enc
