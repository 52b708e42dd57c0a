// The relational operators of the cat language on symbolic sets and relations (SymbolicRelation.hpp).
// Terms are built only inside the operands' bounds. The closure is Warshall's algorithm unrolled into
// formulas: exact, with no auxiliary variables, so no self-supporting cycle can satisfy it.
#pragma once

#include "checker/z3/SymbolicRelation.hpp"
#include "model/Deadline.hpp"

namespace ptxmm::checker::z3enc {

enum class Combine { Union, Inter, Diff };

SymSet combine(z3::context& ctx, Combine op, const SymSet& a, const SymSet& b);
SymRel combine(z3::context& ctx, Combine op, const SymRel& a, const SymRel& b);
/// r ; s (cubic: checks `deadline`, throwing model::LimitReached).
SymRel compose(z3::context& ctx, const SymRel& r, const SymRel& s, const model::Deadline& deadline = {});
SymRel inverse(z3::context& ctx, const SymRel& r);
/// r+ (cubic: checks `deadline`, throwing model::LimitReached).
SymRel closure(const SymRel& r, const model::Deadline& deadline = {});
/// r | [events]: the reflexive closure over the events that happen.
SymRel reflexive(const SymRel& r, const SymSet& events);
/// [S].
SymRel identityOn(z3::context& ctx, const SymSet& s);
/// S * T.
SymRel product(z3::context& ctx, const SymSet& s, const SymSet& t);
/// The complement relative to the events that happen.
SymSet complement(z3::context& ctx, const SymSet& s, const SymSet& events);
SymRel complement(z3::context& ctx, const SymRel& r, const SymSet& events);
SymSet domain(z3::context& ctx, const SymRel& r);
SymSet range(z3::context& ctx, const SymRel& r);
/// Some event is related to itself.
z3::expr someReflexive(z3::context& ctx, const SymRel& r);
/// No pair at all (set or relation).
z3::expr isEmpty(z3::context& ctx, const SymSet& s);
z3::expr isEmpty(z3::context& ctx, const SymRel& r);

}  // namespace ptxmm::checker::z3enc
