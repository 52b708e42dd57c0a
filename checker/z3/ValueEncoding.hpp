// Value terms (model/ValueExpr.hpp) as Z3 64-bit vectors: the same operator meanings as the explicit engine's,
// because both instantiate model/ValueSemantics.hpp (here over Z3 terms), and the same flag for values that need a
// division by zero, which PTX leaves unspecified.
#pragma once

#include <z3++.h>

#include <functional>

#include "model/ValueExpr.hpp"

namespace ptxmm::checker::z3enc {

/// A term's value and the condition under which computing it needs an unspecified result.
struct SymValue {
  z3::expr value;
  z3::expr unspecified;
};

/// The bit-vector width of every value.
constexpr unsigned kValueBits = 64;

/// Encodes `term`; `reg(id)` gives a register leaf's encoding, `read(event)` a read leaf's value. Shared subterms
/// are encoded once, and deep terms without recursion.
SymValue encodeValue(z3::context& ctx, const model::ValuePtr& term, const std::function<SymValue(int)>& reg,
                     const std::function<z3::expr(int)>& read);

}  // namespace ptxmm::checker::z3enc
