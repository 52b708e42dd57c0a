// Translation of a cat model into Z3 formulas (ModelEncoding.hpp).
#include "checker/z3/ModelEncoding.hpp"

#include <cassert>

#include "checker/z3/SymbolicAlgebra.hpp"
#include "model/Evaluator.hpp"
#include "model/GraphAlgorithms.hpp"
#include "model/Overloaded.hpp"

namespace ptxmm::checker::z3enc {

using model::ExprType;
namespace ir = model::ir;

namespace {

using model::Overloaded;


const SymSet& asSet(const Sym& s) { return std::get<SymSet>(s); }
const SymRel& asRel(const Sym& s) { return std::get<SymRel>(s); }

}  // namespace

ModelEncoding::ModelEncoding(z3::context& ctx, const model::CatModel& model, const ProgramEncoding& program)
    : ctx_(ctx), model_(model), program_(program), bounds_(model, program.bounds()), cache_(model.defs.size()),
      order_(model) {
  // In definition order, so a reference reads its definition's answer instead of recursing into it (a chain of
  // 20,000 `let`s would recurse 20,000 deep).
  for (const auto& def : model_.defs) pointwiseDefs_.push_back(def.recGroup < 0 && pointwiseStatic(*def.expr));
  for (std::size_t i = 0; i < model_.checks.size(); ++i) {
    const z3::expr holds = encodeCheck(i);
    if (unsupported_) return;
    (model_.checks[i].flag ? flags_ : axioms_).push_back({i, model_.checks[i].name, holds});
  }
}

const Sym& ModelEncoding::definition(std::size_t index) {
  order_.ensure(index, [&](std::size_t d) { return cache_[d].has_value(); }, [&](std::size_t d) { compute(d); });
  return *cache_[index];
}

// One definition (for a `let rec`, its whole group), once DefinitionOrder has computed those it needs.
void ModelEncoding::compute(std::size_t index) {
  if (!cache_[index]) {
    const int group = model_.defs[index].recGroup;
    if (group < 0) {
      cache_[index] = encode(*model_.defs[index].expr);
    } else {
      // Kleene iteration from the empty relation; each round adds at least one pair of the bound until the
      // fixpoint, so rounds = pairs in the bounds + 1 reach the least fixpoint in every execution.
      const auto& defs = model_.recGroups[static_cast<std::size_t>(group)].defs;
      std::size_t rounds = 1;
      for (auto d : defs) {
        cache_[d] = SymRel(ctx_, program_.size());
        rounds += std::get<model::BitMatrix>(bounds_.definition(d)).count();
      }
      for (std::size_t k = 0; k < rounds; ++k) {
        std::vector<Sym> next;
        for (auto d : defs) next.push_back(encode(*model_.defs[d].expr));
        for (std::size_t i = 0; i < defs.size(); ++i) cache_[defs[i]] = std::move(next[i]);
      }
    }
  }
}

Sym ModelEncoding::encode(const model::RelExpr& e) {
  program_.deadline().check(kEncodingStage);
  const std::size_t n = program_.size();
  return std::visit(
      Overloaded{
          [&](const ir::Empty&) -> Sym {
            if (e.type == ExprType::Set) return SymSet(ctx_, n);
            return SymRel(ctx_, n);
          },
          [&](const ir::Universe&) -> Sym { return program_.events(); },
          [&](const ir::BaseSet& b) -> Sym { return program_.set(b.tag); },
          [&](const ir::BaseRelation& b) -> Sym { return program_.rel(b.rel); },
          [&](const ir::DefRef& d) -> Sym { return definition(d.index); },
          [&](const ir::Unary& u) -> Sym {
            Sym a = encode(*u.arg);
            switch (u.op) {
              case ir::UnaryOp::Inverse: return inverse(ctx_, asRel(a));
              case ir::UnaryOp::Plus: return closure(asRel(a), program_.deadline());
              case ir::UnaryOp::Star: return reflexive(closure(asRel(a), program_.deadline()), program_.events());
              case ir::UnaryOp::Optional: return reflexive(asRel(a), program_.events());
              case ir::UnaryOp::Complement:
                if (auto* s = std::get_if<SymSet>(&a)) return complement(ctx_, *s, program_.events());
                return complement(ctx_, asRel(a), program_.events());
              case ir::UnaryOp::Identity: return identityOn(ctx_, asSet(a));
              case ir::UnaryOp::Domain: return domain(ctx_, asRel(a));
              case ir::UnaryOp::Range: return range(ctx_, asRel(a));
            }
            assert(!"unknown unary operator");
            return a;
          },
          [&](const ir::Binary& b) -> Sym {
            Sym l = encode(*b.lhs);
            Sym r = encode(*b.rhs);
            switch (b.op) {
              case ir::BinaryOp::Seq: return compose(ctx_, asRel(l), asRel(r), program_.deadline());
              case ir::BinaryOp::Product: return product(ctx_, asSet(l), asSet(r));
              case ir::BinaryOp::Union:
              case ir::BinaryOp::Inter:
              case ir::BinaryOp::Diff: break;
            }
            const Combine op = b.op == ir::BinaryOp::Union ? Combine::Union
                               : b.op == ir::BinaryOp::Inter ? Combine::Inter
                                                             : Combine::Diff;
            if (auto* s = std::get_if<SymSet>(&l)) return combine(ctx_, op, *s, asSet(r));
            return combine(ctx_, op, asRel(l), asRel(r));
          },
      },
      e.node);
}

// A relation is acyclic iff some ranking of the events increases along it.
z3::expr ModelEncoding::acyclic(const SymRel& r, const std::string& tag) {
  const std::string prefix = "rank" + std::to_string(ranks_++) + "_" + tag + "_";
  std::vector<std::optional<z3::expr>> rank(r.n);
  auto rankOf = [&](std::size_t i) -> const z3::expr& {
    if (!rank[i]) rank[i] = ctx_.int_const((prefix + std::to_string(i)).c_str());
    return *rank[i];
  };
  z3::expr_vector terms(ctx_);
  for (auto [i, j] : r.may.pairs())
    terms.push_back(i == j ? !r.at(i, i) : z3::implies(r.at(i, j), rankOf(i) < rankOf(j)));
  return terms.empty() ? ctx_.bool_val(true) : z3::mk_and(terms);
}

// Static relations built only from pointwise operators have, on the events that happen, exactly the value
// they have on all events restricted to those that happen: their cliques can be computed before solving.
bool ModelEncoding::pointwiseStatic(const model::RelExpr& e) const {
  auto isIdentity = [](const model::RelExpr& x) {
    const auto* u = std::get_if<ir::Unary>(&x.node);
    return u && u->op == ir::UnaryOp::Identity;
  };
  return std::visit(Overloaded{
                        [](const ir::Empty&) { return true; },
                        [](const ir::Universe&) { return true; },
                        [](const ir::BaseSet&) { return true; },
                        [](const ir::BaseRelation& b) { return model::baseRelInfo(b.rel).stage == model::Stage::Static; },
                        [&](const ir::DefRef& d) { return pointwiseDefs_[d.index] != 0; },
                        [&](const ir::Unary& u) {
                          const bool pointwise = u.op == ir::UnaryOp::Inverse || u.op == ir::UnaryOp::Complement ||
                                                 u.op == ir::UnaryOp::Identity;
                          return pointwise && pointwiseStatic(*u.arg);
                        },
                        [&](const ir::Binary& b) {
                          if (b.op == ir::BinaryOp::Seq && !isIdentity(*b.lhs) && !isIdentity(*b.rhs)) return false;
                          return pointwiseStatic(*b.lhs) && pointwiseStatic(*b.rhs);
                        },
                    },
                    e.node);
}

z3::expr ModelEncoding::encodeCheck(std::size_t index) {
  const model::Check& c = model_.checks[index];
  const Sym value = encode(*c.expr);
  auto positive = [&](const Sym& v, bool forAssertion) -> z3::expr {
    switch (c.kind) {
      case model::CheckKind::Acyclic:
        // Ranks are existential: sound and complete for an asserted axiom, not under negation.
        return forAssertion ? acyclic(asRel(v), c.name) : !someReflexive(ctx_, closure(asRel(v), program_.deadline()));
      case model::CheckKind::Irreflexive: return !someReflexive(ctx_, asRel(v));
      case model::CheckKind::Empty:
        if (auto* s = std::get_if<SymSet>(&v)) return isEmpty(ctx_, *s);
        return isEmpty(ctx_, asRel(v));
    }
    return ctx_.bool_val(true);
  };
  const bool assertion = !c.flag && !c.negated;
  if (!c.pairwise) {
    const z3::expr p = positive(value, assertion);
    return c.negated ? !p : p;
  }
  if (!pointwiseStatic(*c.pairwise) || c.negated || c.flag) {
    unsupported_ = "the Z3 engine supports `pairwise` only in an axiom whose pairwise relation is static and pointwise (" +
                   c.name + ")";
    return ctx_.bool_val(true);
  }
  model::Evaluator eval(model_);
  eval.reset(program_.bounds());
  model::BitMatrix pairs = std::get<model::BitMatrix>(eval.evaluate(*c.pairwise));
  pairs |= pairs.inverse();
  z3::expr_vector perClique(ctx_);
  for (const auto& clique : model::maximalCliques(pairs)) {
    SymRel restricted(ctx_, program_.size());
    for (auto [i, j] : asRel(value).may.pairs())
      if (clique.test(i) && clique.test(j)) restricted.set(i, j, asRel(value).at(i, j));
    perClique.push_back(positive(restricted, true));
  }
  return perClique.empty() ? ctx_.bool_val(true) : z3::mk_and(perClique);
}

}  // namespace ptxmm::checker::z3enc
