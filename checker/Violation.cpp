// Decomposing a failing check into steps (Violation.hpp).
#include "checker/Violation.hpp"

#include "model/CatPrinter.hpp"
#include "model/GraphAlgorithms.hpp"
#include "model/Overloaded.hpp"

namespace ptxmm::checker {
namespace {

using model::Overloaded;

using model::BitMatrix;
using model::RelExpr;
namespace ir = model::ir;


class Decomposer {
 public:
  explicit Decomposer(model::Evaluator& ev) : ev_(ev), model_(ev.model()) {}

  // Steps from i to j along e (which relates them). With `expand`, definitions are entered down to base
  // relations; without it, a definition is one step. Each step records the expression it stands for.
  void decompose(const RelExpr& e, std::size_t i, std::size_t j, bool expand, std::vector<std::string> via,
                 std::vector<Step>& out, std::vector<const RelExpr*>* origins, int depth = 0) {
    auto step = [&](const std::string& name) {
      out.push_back({i, j, name, via});
      if (origins) origins->push_back(&e);
    };
    if (depth > kMaxDepth) return step(model::printExpr(model_, e));
    std::visit(Overloaded{
                   [&](const ir::BaseRelation& b) { step(std::string(model::baseRelInfo(b.rel).name)); },
                   [&](const ir::DefRef& d) {
                     const auto& def = model_.defs[d.index];
                     if (!expand) return step(def.name);
                     via.push_back(def.name);
                     decompose(*def.expr, i, j, true, via, out, origins, depth + 1);
                   },
                   [&](const ir::Unary& u) {
                     switch (u.op) {
                       case ir::UnaryOp::Identity: return;  // [S] relates an event to itself: no step
                       case ir::UnaryOp::Optional:
                         if (i == j) return;
                         return decompose(*u.arg, i, j, expand, via, out, origins, depth + 1);
                       case ir::UnaryOp::Star:
                         if (i == j) return;
                         [[fallthrough]];
                       case ir::UnaryOp::Plus:
                         for (auto [a, b] : model::shortestPath(rel(*u.arg), i, j))
                           decompose(*u.arg, a, b, expand, via, out, origins, depth + 1);
                         return;
                       default: return step(model::printExpr(model_, e));
                     }
                   },
                   [&](const ir::Binary& b) {
                     switch (b.op) {
                       case ir::BinaryOp::Union: {
                         const RelExpr& side = rel(*b.lhs).test(i, j) ? *b.lhs : *b.rhs;
                         return decompose(side, i, j, expand, via, out, origins, depth + 1);
                       }
                       case ir::BinaryOp::Inter: {
                         // Both sides hold; the one decided latest (e.g. bc in `bc & vloc`) is the informative one.
                         const bool right = ev_.stageOf(*b.rhs) > ev_.stageOf(*b.lhs);
                         return decompose(right ? *b.rhs : *b.lhs, i, j, expand, via, out, origins, depth + 1);
                       }
                       case ir::BinaryOp::Diff: return decompose(*b.lhs, i, j, expand, via, out, origins, depth + 1);
                       case ir::BinaryOp::Seq: {
                         const BitMatrix l = rel(*b.lhs), r = rel(*b.rhs);
                         for (std::size_t k = 0; k < l.size(); ++k)
                           if (l.test(i, k) && r.test(k, j)) {
                             decompose(*b.lhs, i, k, expand, via, out, origins, depth + 1);
                             decompose(*b.rhs, k, j, expand, via, out, origins, depth + 1);
                             return;
                           }
                         return step(model::printExpr(model_, e));
                       }
                       case ir::BinaryOp::Product: return step(model::printExpr(model_, e));
                     }
                   },
                   // Sets are never decomposed as relations: these only appear inside [S] or S*T.
                   [&](const ir::Empty&) { step("0"); },
                   [&](const ir::Universe&) { step(model::printExpr(model_, e)); },
                   [&](const ir::BaseSet&) { step(model::printExpr(model_, e)); },
               },
               e.node);
  }

  BitMatrix rel(const RelExpr& e) { return std::get<BitMatrix>(ev_.evaluate(e)); }

 private:
  static constexpr int kMaxDepth = 64;

  model::Evaluator& ev_;
  const model::CatModel& model_;
};

}  // namespace

Violation findViolation(model::Evaluator& ev, std::size_t index) {
  const model::Check& c = ev.model().checks[index];
  Violation v{c.name, model::printExpr(ev.model(), *c.expr), "", {}, {}};
  if (c.negated || c.flag) {
    v.shape = "negated";
    return v;
  }
  const model::Value value = ev.evaluate(*c.expr);
  if (const auto* set = std::get_if<model::BitSet>(&value)) {
    v.shape = "element";
    const auto e = set->elements().front();
    v.steps.push_back({e, e, "member", {}});
    return v;
  }
  BitMatrix r = std::get<BitMatrix>(value);
  if (c.pairwise) {  // the first clique on which the test fails
    BitMatrix p = std::get<BitMatrix>(ev.evaluate(*c.pairwise));
    p |= p.inverse();
    for (const auto& clique : model::maximalCliques(p)) {
      const BitMatrix restricted = r.restrictedTo(clique);
      const bool fails = c.kind == model::CheckKind::Acyclic       ? !restricted.acyclic()
                         : c.kind == model::CheckKind::Irreflexive ? !restricted.irreflexive()
                                                                   : !restricted.none();
      if (fails) {
        r = restricted;
        break;
      }
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  switch (c.kind) {
    case model::CheckKind::Acyclic: {
      v.shape = "cycle";
      const auto cycle = model::findCycle(r);
      for (std::size_t k = 0; k < cycle.size(); ++k) edges.emplace_back(cycle[k], cycle[(k + 1) % cycle.size()]);
      break;
    }
    case model::CheckKind::Irreflexive:
      v.shape = "self-loop";
      for (std::size_t i = 0; i < r.size(); ++i)
        if (r.test(i, i)) {
          edges.emplace_back(i, i);
          break;
        }
      break;
    case model::CheckKind::Empty:
      v.shape = "pair";
      edges.push_back(r.pairs().front());
      break;
  }
  Decomposer d(ev);
  std::vector<const RelExpr*> origins;
  for (auto [a, b] : edges) d.decompose(*c.expr, a, b, false, {}, v.steps, &origins);
  for (std::size_t k = 0; k < v.steps.size(); ++k) {
    std::vector<Step> flat;
    d.decompose(*origins[k], v.steps[k].from, v.steps[k].to, true, {}, flat, nullptr);
    v.detail.push_back(std::move(flat));
  }
  return v;
}

}  // namespace ptxmm::checker
