// Upper bounds of relational expressions (StaticBounds.hpp). Monotone operators map bounds to bounds; the
// complement and the left side of a difference cannot use their argument's upper bound (it would need a
// lower bound), so the complement is bounded by all pairs of possible events and A \ B by A.
#include "model/StaticBounds.hpp"
#include "model/Overloaded.hpp"

#include <cassert>

namespace ptxmm::model {
StaticBounds::StaticBounds(const CatModel& model, const Candidate& base)
    : model_(model), base_(base), cache_(model.defs.size()), order_(model) {}

const Value& StaticBounds::definition(std::size_t index) {
  order_.ensure(index, [&](std::size_t d) { return cache_[d].has_value(); }, [&](std::size_t d) { compute(d); });
  return *cache_[index];
}

// One definition (for a `let rec`, its whole group), once DefinitionOrder has computed those it needs.
void StaticBounds::compute(std::size_t index) {
  if (!cache_[index]) {
    const int group = model_.defs[index].recGroup;
    if (group < 0) {
      cache_[index] = bound(*model_.defs[index].expr);
    } else {
      // The bound of a least fixpoint is the fixpoint of the bounds (all operators here are monotone in it).
      const auto& defs = model_.recGroups[static_cast<std::size_t>(group)].defs;
      for (auto d : defs) cache_[d] = BitMatrix(base_.size);
      for (bool changed = true; changed;) {
        changed = false;
        for (auto d : defs) {
          Value next = bound(*model_.defs[d].expr);
          if (!(next == *cache_[d])) {
            cache_[d] = std::move(next);
            changed = true;
          }
        }
      }
    }
  }
}

Value StaticBounds::bound(const RelExpr& e) {
  const std::size_t n = base_.size;
  const BitSet all = BitSet(n).complement();
  return std::visit(
      Overloaded{
          [&](const ir::Empty&) -> Value {
            if (e.type == ExprType::Set) return BitSet(n);
            return BitMatrix(n);
          },
          [&](const ir::Universe&) -> Value { return all; },
          [&](const ir::BaseSet& b) -> Value { return base_.set(b.tag); },
          [&](const ir::BaseRelation& b) -> Value { return base_.rel(b.rel); },
          [&](const ir::DefRef& d) -> Value { return definition(d.index); },
          [&](const ir::Unary& u) -> Value {
            Value a = bound(*u.arg);
            switch (u.op) {
              case ir::UnaryOp::Inverse: return std::get<BitMatrix>(a).inverse();
              case ir::UnaryOp::Plus: return std::get<BitMatrix>(a).transitiveClosure();
              case ir::UnaryOp::Star: return std::get<BitMatrix>(a).reflexiveTransitiveClosure();
              case ir::UnaryOp::Optional: return std::get<BitMatrix>(a).reflexiveClosure();
              case ir::UnaryOp::Complement:
                if (u.arg->type == ExprType::Set) return all;
                return BitMatrix::product(all, all);
              case ir::UnaryOp::Identity: return BitMatrix::identityOn(std::get<BitSet>(a));
              case ir::UnaryOp::Domain: return std::get<BitMatrix>(a).domain();
              case ir::UnaryOp::Range: return std::get<BitMatrix>(a).range();
            }
            assert(!"unknown unary operator");
            return a;
          },
          [&](const ir::Binary& b) -> Value {
            Value l = bound(*b.lhs);
            if (b.op == ir::BinaryOp::Diff) return l;
            Value r = bound(*b.rhs);
            switch (b.op) {
              case ir::BinaryOp::Seq: return std::get<BitMatrix>(l).compose(std::get<BitMatrix>(r));
              case ir::BinaryOp::Product: return BitMatrix::product(std::get<BitSet>(l), std::get<BitSet>(r));
              case ir::BinaryOp::Union:
                if (auto* s = std::get_if<BitSet>(&l)) return *s |= std::get<BitSet>(r);
                return std::get<BitMatrix>(l) |= std::get<BitMatrix>(r);
              case ir::BinaryOp::Inter:
                if (auto* s = std::get_if<BitSet>(&l)) return *s &= std::get<BitSet>(r);
                return std::get<BitMatrix>(l) &= std::get<BitMatrix>(r);
              case ir::BinaryOp::Diff: break;
            }
            return l;
          },
      },
      e.node);
}

}  // namespace ptxmm::model
