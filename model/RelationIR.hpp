// The relation IR: a parsed cat model as a closed set of node kinds. Every consumer (the explicit evaluator,
// the static bounds, the Z3 encoder, the printer) is an exhaustive std::visit over RelNode, so adding a node
// kind does not compile until every consumer handles it. Names are resolved at parse time: a node refers to a
// base set (a Tag), a base relation (a BaseRel) or an earlier definition by index.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "model/Diagnostic.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::model {

enum class ExprType : std::uint8_t { Set, Relation };

struct RelExpr;
using RelExprPtr = std::shared_ptr<const RelExpr>;

namespace ir {

/// `0`: the empty set or relation (typed by its context).
struct Empty {};
/// `_`: the set of all events.
struct Universe {};
/// A base set provided by the engines (an event tag).
struct BaseSet {
  Tag tag;
};
/// A base relation provided by the engines.
struct BaseRelation {
  BaseRel rel;
};
/// A reference to a definition of the model, by index into CatModel::defs.
struct DefRef {
  std::size_t index;
};

enum class UnaryOp : std::uint8_t {
  Inverse,     // r^-1
  Plus,        // r+   transitive closure
  Star,        // r*   reflexive-transitive closure
  Optional,    // r?   reflexive closure
  Complement,  // ~e   (of a set or a relation, relative to the events of the execution)
  Identity,    // [S]  identity restricted to a set
  Domain,      // domain(r)
  Range,       // range(r)
};
struct Unary {
  UnaryOp op;
  RelExprPtr arg;
};

enum class BinaryOp : std::uint8_t {
  Union,    // |
  Inter,    // &
  Diff,     // '\'
  Seq,      // ;   relational composition
  Product,  // S*T cartesian product of two sets
};
struct Binary {
  BinaryOp op;
  RelExprPtr lhs;
  RelExprPtr rhs;
};

}  // namespace ir

using RelNode = std::variant<ir::Empty, ir::Universe, ir::BaseSet, ir::BaseRelation, ir::DefRef, ir::Unary, ir::Binary>;

struct RelExpr {
  RelNode node;
  ExprType type;
  SourcePos pos;
};

/// `let name = expr` (or one binding of `let rec ... and ...`).
struct Definition {
  std::string name;
  RelExprPtr expr;
  ExprType type;
  SourcePos pos;
  int recGroup = -1;  // index into CatModel::recGroups for `let rec` bindings, -1 otherwise
};

/// Bindings of one `let rec`: evaluated together as a least fixpoint from the empty relation.
struct RecGroup {
  std::vector<std::size_t> defs;
};

enum class CheckKind : std::uint8_t { Acyclic, Irreflexive, Empty };

/// `[flag] [~]acyclic|irreflexive|empty expr [pairwise S] as name`.
/// With `pairwise S` the test applies to `expr` restricted to every set of events that are pairwise related
/// by S (the maximal cliques of S's symmetric closure): the form of the SC-per-location axiom [§3.5].
/// A flag does not reject executions; it reports them (e.g. data races).
struct Check {
  CheckKind kind;
  bool negated = false;
  bool flag = false;
  RelExprPtr expr;
  RelExprPtr pairwise;  // null unless `pairwise` is given
  std::string name;
  SourcePos pos;
};

/// A whole model: definitions in order (a definition only refers to earlier ones or to its rec group),
/// and the checks in order.
struct CatModel {
  std::string title;
  std::string file;
  std::vector<Definition> defs;
  std::vector<RecGroup> recGroups;
  std::vector<Check> checks;

  /// Index of the last definition with this name, or -1.
  int findDef(const std::string& name) const {
    for (std::size_t i = defs.size(); i-- > 0;)
      if (defs[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace ptxmm::model
