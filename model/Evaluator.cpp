// Explicit evaluation of the relation IR on bit matrices (Evaluator.hpp).
#include "model/Evaluator.hpp"

#include "model/GraphAlgorithms.hpp"
#include "model/Overloaded.hpp"

#include <algorithm>
#include <cassert>

namespace ptxmm::model {
namespace {

const BitSet& asSet(const Value& v) { return std::get<BitSet>(v); }
const BitMatrix& asRel(const Value& v) { return std::get<BitMatrix>(v); }

Stage later(Stage a, Stage b) { return static_cast<std::uint8_t>(a) >= static_cast<std::uint8_t>(b) ? a : b; }

}  // namespace

Evaluator::Evaluator(const CatModel& model) : model_(model), order_(model) {
  defStages_.assign(model_.defs.size(), Stage::Static);
  // Rec groups may refer forward, so iterate until the stages stop growing.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t i = 0; i < model_.defs.size(); ++i) {
      const Stage s = stageOf(*model_.defs[i].expr);
      if (s != defStages_[i] && later(s, defStages_[i]) == s) {
        defStages_[i] = s;
        changed = true;
      }
    }
  }
  for (const auto& g : model_.recGroups) {
    Stage s = Stage::Static;
    for (auto d : g.defs) s = later(s, defStages_[d]);
    for (auto d : g.defs) defStages_[d] = s;
  }
  for (const auto& c : model_.checks) {
    Stage s = stageOf(*c.expr);
    if (c.pairwise) s = later(s, stageOf(*c.pairwise));
    checkStages_.push_back(s);
  }
  cache_.resize(model_.defs.size());
  checkCache_.resize(model_.checks.size());
}

Stage Evaluator::stageOf(const RelExpr& e) const {
  return std::visit(Overloaded{
                        [](const ir::Empty&) { return Stage::Static; },
                        [](const ir::Universe&) { return Stage::Static; },
                        [](const ir::BaseSet&) { return Stage::Static; },
                        [](const ir::BaseRelation& b) { return baseRelInfo(b.rel).stage; },
                        [this](const ir::DefRef& d) { return defStages_[d.index]; },
                        [this](const ir::Unary& u) { return stageOf(*u.arg); },
                        [this](const ir::Binary& b) { return later(stageOf(*b.lhs), stageOf(*b.rhs)); },
                    },
                    e.node);
}

void Evaluator::reset(const Candidate& candidate) {
  candidate_ = &candidate;
  std::fill(cache_.begin(), cache_.end(), std::nullopt);
  std::fill(checkCache_.begin(), checkCache_.end(), std::nullopt);
}

void Evaluator::invalidate(Stage from) {
  for (std::size_t i = 0; i < cache_.size(); ++i)
    if (later(defStages_[i], from) == defStages_[i]) cache_[i].reset();
  for (std::size_t i = 0; i < checkCache_.size(); ++i)
    if (later(checkStages_[i], from) == checkStages_[i]) checkCache_[i].reset();
}

const Value& Evaluator::definition(std::size_t index) {
  order_.ensure(index, [&](std::size_t d) { return cache_[d].has_value(); }, [&](std::size_t d) { compute(d); });
  return *cache_[index];
}

// One definition (for a `let rec`, its whole group), once DefinitionOrder has computed those it needs.
void Evaluator::compute(std::size_t index) {
  if (!cache_[index]) {
    const int group = model_.defs[index].recGroup;
    if (group >= 0)
      computeRecGroup(static_cast<std::size_t>(group));
    else
      cache_[index] = evaluate(*model_.defs[index].expr);
  }
}

// Least fixpoint of a `let rec` group, starting from empty relations.
void Evaluator::computeRecGroup(std::size_t group) {
  const auto& defs = model_.recGroups[group].defs;
  for (auto d : defs) cache_[d] = BitMatrix(candidate_->size);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto d : defs) {
      Value next = evaluate(*model_.defs[d].expr);
      if (!(next == *cache_[d])) {
        cache_[d] = std::move(next);
        changed = true;
      }
    }
  }
}

Value Evaluator::evaluate(const RelExpr& e) {
  deadline_.check("evaluating the model on a candidate execution");
  const std::size_t n = candidate_->size;
  return std::visit(
      Overloaded{
          [&](const ir::Empty&) -> Value {
            if (e.type == ExprType::Set) return BitSet(n);
            return BitMatrix(n);
          },
          [&](const ir::Universe&) -> Value { return BitSet(n).complement(); },
          [&](const ir::BaseSet& b) -> Value { return candidate_->set(b.tag); },
          [&](const ir::BaseRelation& b) -> Value { return candidate_->rel(b.rel); },
          [&](const ir::DefRef& d) -> Value { return definition(d.index); },
          [&](const ir::Unary& u) -> Value {
            Value a = evaluate(*u.arg);
            switch (u.op) {
              case ir::UnaryOp::Inverse: return asRel(a).inverse();
              case ir::UnaryOp::Plus: return asRel(a).transitiveClosure(deadline_);
              case ir::UnaryOp::Star: return asRel(a).reflexiveTransitiveClosure(deadline_);
              case ir::UnaryOp::Optional: return asRel(a).reflexiveClosure();
              case ir::UnaryOp::Complement:
                if (auto* s = std::get_if<BitSet>(&a)) return s->complement();
                return asRel(a).complement();
              case ir::UnaryOp::Identity: return BitMatrix::identityOn(asSet(a));
              case ir::UnaryOp::Domain: return asRel(a).domain();
              case ir::UnaryOp::Range: return asRel(a).range();
            }
            assert(!"unknown unary operator");
            return a;
          },
          [&](const ir::Binary& b) -> Value {
            Value l = evaluate(*b.lhs);
            Value r = evaluate(*b.rhs);
            switch (b.op) {
              case ir::BinaryOp::Seq: return asRel(l).compose(asRel(r));
              case ir::BinaryOp::Product: return BitMatrix::product(asSet(l), asSet(r));
              case ir::BinaryOp::Union:
              case ir::BinaryOp::Inter:
              case ir::BinaryOp::Diff: break;
            }
            auto combine = [&](auto& x, const auto& y) {
              if (b.op == ir::BinaryOp::Union) x |= y;
              else if (b.op == ir::BinaryOp::Inter) x &= y;
              else x.subtract(y);
            };
            if (auto* s = std::get_if<BitSet>(&l))
              combine(*s, asSet(r));
            else
              combine(std::get<BitMatrix>(l), asRel(r));
            return l;
          },
      },
      e.node);
}

bool Evaluator::test(const Check& c, const Value& v, const std::optional<BitMatrix>& pairwise) {
  auto decide = [&](const Value& x) {
    switch (c.kind) {
      case CheckKind::Acyclic: return asRel(x).acyclic(deadline_);
      case CheckKind::Irreflexive: return asRel(x).irreflexive();
      case CheckKind::Empty:
        if (auto* s = std::get_if<BitSet>(&x)) return s->none();
        return asRel(x).none();
    }
    return false;
  };
  bool result = true;
  if (pairwise) {
    BitMatrix symmetric = *pairwise;
    symmetric |= pairwise->inverse();
    for (const auto& clique : maximalCliques(symmetric))
      if (!decide(Value(asRel(v).restrictedTo(clique)))) {
        result = false;
        break;
      }
  } else {
    result = decide(v);
  }
  return result != c.negated;
}

bool Evaluator::holds(std::size_t i) {
  if (!checkCache_[i]) {
    const Check& c = model_.checks[i];
    std::optional<BitMatrix> pairwise;
    if (c.pairwise) pairwise = asRel(evaluate(*c.pairwise));
    checkCache_[i] = test(c, evaluate(*c.expr), pairwise);
  }
  return *checkCache_[i];
}

std::optional<std::size_t> Evaluator::firstFailingCheck(Stage upTo) {
  for (std::size_t i = 0; i < model_.checks.size(); ++i)
    if (!model_.checks[i].flag && later(upTo, checkStages_[i]) == upTo && !holds(i)) return i;
  return std::nullopt;
}

std::vector<std::size_t> Evaluator::failingChecks() {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < model_.checks.size(); ++i)
    if (!model_.checks[i].flag && !holds(i)) out.push_back(i);
  return out;
}

std::vector<std::size_t> Evaluator::raisedFlags() {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < model_.checks.size(); ++i)
    if (model_.checks[i].flag && holds(i)) out.push_back(i);
  return out;
}

}  // namespace ptxmm::model
