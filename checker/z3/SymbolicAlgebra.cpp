// Symbolic relational operators (SymbolicAlgebra.hpp).
#include "checker/z3/SymbolicAlgebra.hpp"

namespace ptxmm::checker::z3enc {
namespace {

z3::expr disjunction(z3::context& ctx, const z3::expr_vector& terms) {
  if (terms.empty()) return ctx.bool_val(false);
  if (terms.size() == 1) return terms[0];
  return z3::mk_or(terms);
}

z3::expr pick(z3::context& ctx, Combine op, bool inA, const z3::expr& a, bool inB, const z3::expr& b) {
  const z3::expr f = ctx.bool_val(false);
  const z3::expr& x = inA ? a : f;
  const z3::expr& y = inB ? b : f;
  switch (op) {
    case Combine::Union: return inA && inB ? (x || y) : inA ? x : y;
    case Combine::Inter: return x && y;
    case Combine::Diff: return inB ? (x && !y) : x;
  }
  return f;
}

bool keeps(Combine op, bool inA, bool inB) {
  switch (op) {
    case Combine::Union: return inA || inB;
    case Combine::Inter: return inA && inB;
    case Combine::Diff: return inA;
  }
  return false;
}

}  // namespace

SymSet combine(z3::context& ctx, Combine op, const SymSet& a, const SymSet& b) {
  SymSet out(ctx, a.member.size());
  for (std::size_t i = 0; i < a.member.size(); ++i) {
    const bool inA = a.may.test(i), inB = b.may.test(i);
    if (keeps(op, inA, inB)) out.set(i, pick(ctx, op, inA, a.at(i), inB, b.at(i)));
  }
  return out;
}

SymRel combine(z3::context& ctx, Combine op, const SymRel& a, const SymRel& b) {
  SymRel out(ctx, a.n);
  model::BitMatrix candidates = a.may;
  if (op == Combine::Union) candidates |= b.may;
  for (auto [i, j] : candidates.pairs()) {
    const bool inA = a.may.test(i, j), inB = b.may.test(i, j);
    if (keeps(op, inA, inB)) out.set(i, j, pick(ctx, op, inA, a.at(i, j), inB, b.at(i, j)));
  }
  return out;
}

SymRel compose(z3::context& ctx, const SymRel& r, const SymRel& s, const model::Deadline& deadline) {
  SymRel out(ctx, r.n);
  // One row at a time, and a Z3 vector only for a pair that has terms: n^2 Z3 vectors took memory and time, and
  // z3++ crashes when creating one fails for lack of memory (issue 16).
  std::vector<std::vector<z3::expr>> row(r.n);
  for (std::size_t i = 0; i < r.n; ++i) {
    deadline.check(kEncodingStage);
    for (std::size_t j = 0; j < r.n; ++j) {
      if (!r.may.test(i, j)) continue;
      for (std::size_t k = 0; k < r.n; ++k)
        if (s.may.test(j, k)) row[k].push_back(r.at(i, j) && s.at(j, k));
    }
    for (std::size_t k = 0; k < r.n; ++k) {
      if (row[k].empty()) continue;
      z3::expr_vector terms(ctx);
      for (const auto& t : row[k]) terms.push_back(t);
      out.set(i, k, disjunction(ctx, terms));
      row[k].clear();
    }
  }
  return out;
}

SymRel inverse(z3::context& ctx, const SymRel& r) {
  SymRel out(ctx, r.n);
  for (auto [i, j] : r.may.pairs()) out.set(j, i, r.at(i, j));
  return out;
}

SymRel closure(const SymRel& r, const model::Deadline& deadline) {
  SymRel t = r;
  for (std::size_t k = 0; k < t.n; ++k)
    for (std::size_t i = 0; i < t.n; ++i) {
      if (!t.may.test(i, k)) continue;
      deadline.check(kEncodingStage);
      const z3::expr ik = t.at(i, k);
      for (std::size_t j = 0; j < t.n; ++j) {
        if (!t.may.test(k, j)) continue;
        const z3::expr via = ik && t.at(k, j);
        t.set(i, j, t.may.test(i, j) ? (t.at(i, j) || via) : via);
      }
    }
  return t;
}

SymRel reflexive(const SymRel& r, const SymSet& events) {
  SymRel out = r;
  for (std::size_t i = 0; i < r.n; ++i)
    if (events.may.test(i)) out.set(i, i, r.may.test(i, i) ? (r.at(i, i) || events.at(i)) : events.at(i));
  return out;
}

SymRel identityOn(z3::context& ctx, const SymSet& s) {
  SymRel out(ctx, s.member.size());
  for (auto i : s.may.elements()) out.set(i, i, s.at(i));
  return out;
}

SymRel product(z3::context& ctx, const SymSet& s, const SymSet& t) {
  SymRel out(ctx, s.member.size());
  for (auto i : s.may.elements())
    for (auto j : t.may.elements()) out.set(i, j, s.at(i) && t.at(j));
  return out;
}

SymSet complement(z3::context& ctx, const SymSet& s, const SymSet& events) {
  SymSet out(ctx, s.member.size());
  for (auto i : events.may.elements()) out.set(i, s.may.test(i) ? (events.at(i) && !s.at(i)) : events.at(i));
  return out;
}

SymRel complement(z3::context& ctx, const SymRel& r, const SymSet& events) {
  SymRel out(ctx, r.n);
  for (auto i : events.may.elements())
    for (auto j : events.may.elements()) {
      const z3::expr both = events.at(i) && events.at(j);
      out.set(i, j, r.may.test(i, j) ? (both && !r.at(i, j)) : both);
    }
  return out;
}

SymSet domain(z3::context& ctx, const SymRel& r) {
  SymSet out(ctx, r.n);
  std::vector<z3::expr_vector> terms;
  for (std::size_t i = 0; i < r.n; ++i) terms.emplace_back(ctx);
  for (auto [i, j] : r.may.pairs()) terms[i].push_back(r.at(i, j));
  for (std::size_t i = 0; i < r.n; ++i)
    if (!terms[i].empty()) out.set(i, disjunction(ctx, terms[i]));
  return out;
}

SymSet range(z3::context& ctx, const SymRel& r) { return domain(ctx, inverse(ctx, r)); }

z3::expr someReflexive(z3::context& ctx, const SymRel& r) {
  z3::expr_vector terms(ctx);
  for (std::size_t i = 0; i < r.n; ++i)
    if (r.may.test(i, i)) terms.push_back(r.at(i, i));
  return disjunction(ctx, terms);
}

z3::expr isEmpty(z3::context& ctx, const SymSet& s) {
  z3::expr_vector terms(ctx);
  for (auto i : s.may.elements()) terms.push_back(s.at(i));
  return !disjunction(ctx, terms);
}

z3::expr isEmpty(z3::context& ctx, const SymRel& r) {
  z3::expr_vector terms(ctx);
  for (auto [i, j] : r.may.pairs()) terms.push_back(r.at(i, j));
  return !disjunction(ctx, terms);
}

}  // namespace ptxmm::checker::z3enc
