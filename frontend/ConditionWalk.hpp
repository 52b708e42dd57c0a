// Walking a final condition (Program.hpp's CondExpr) without recursion: a chain of /\ or \/ is a binary tree as deep
// as the chain is long, so every consumer (evaluation, the Z3 encoding, the writer, renumbering, the readers'
// checks) goes through these instead of recursing per conjunct.
#pragma once

#include <cstddef>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// Post-order fold: `leaf(e)` gives the result of True, False and Compare nodes, `node(e, args)` that of Not (one
/// argument) and And / Or (two: a's, b's) from its arguments' results, which it may move from.
template <class R, class Leaf, class Node>
R foldCondition(const CondExpr& root, Leaf leaf, Node node) {
  auto children = [](const CondExpr& e) -> std::size_t {
    switch (e.kind) {
      case CondExpr::Kind::Not: return 1;
      case CondExpr::Kind::And:
      case CondExpr::Kind::Or: return 2;
      default: return 0;
    }
  };
  auto child = [](const CondExpr& e, std::size_t i) -> const CondExpr& { return i == 0 ? *e.a : *e.b; };
  if (children(root) == 0) return leaf(root);
  struct Frame {
    const CondExpr* e;
    std::size_t next;  // the next child to visit
    std::size_t base;  // where its children's results start in `results`
  };
  std::vector<Frame> frames{{&root, 0, 0}};
  std::vector<R> results;
  for (;;) {
    Frame& f = frames.back();
    if (f.next < children(*f.e)) {
      const CondExpr& c = child(*f.e, f.next++);
      if (children(c) == 0)
        results.push_back(leaf(c));
      else
        frames.push_back({&c, 0, results.size()});
      continue;
    }
    R r = node(*f.e, results.data() + f.base);
    results.erase(results.begin() + static_cast<std::ptrdiff_t>(f.base), results.end());
    frames.pop_back();
    if (frames.empty()) return r;
    results.push_back(std::move(r));
  }
}

/// Calls `visit` on both operands of every comparison under `root` (null: none).
template <class Visit>
void forEachCondValue(const CondExpr* root, Visit visit) {
  std::vector<const CondExpr*> stack{root};
  while (!stack.empty()) {
    const CondExpr* e = stack.back();
    stack.pop_back();
    if (!e) continue;
    if (e->kind == CondExpr::Kind::Compare) {
      visit(e->lhs);
      visit(e->rhs);
    }
    stack.push_back(e->b.get());
    stack.push_back(e->a.get());
  }
}

}  // namespace ptxmm::frontend
