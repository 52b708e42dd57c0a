// The claims `ptxmm kernel` checks on final memory: `--assert 'out[0]==8128 && flag[0]==1'` (&&, ||, !,
// parentheses, comparisons == != < <= > >= of terms: buffer elements and integer constants combined by + - * and
// parentheses, e.g. `out[0]+out[1]==2*n[0]` for per-block partial sums) and `--observe 'out[0]'`.
// Indices count elements of the buffer's type; a bare name is its element 0. Errors are located in the option's
// text: `--assert:1:COL: error: ...`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frontend/Program.hpp"
#include "model/Diagnostic.hpp"

namespace ptxmm::checker::kernel {

/// A buffer element named in a claim.
struct ElementRef {
  std::string buffer;
  std::int64_t index = 0;
  std::string text;  // as written, without spaces ("out[0]")
  model::SourcePos pos;
};

struct Claim;
using ClaimPtr = std::shared_ptr<const Claim>;

struct Claim {
  enum class Kind : std::uint8_t { And, Or, Not, Compare };
  struct Term {
    enum class Op : std::uint8_t { Leaf, Add, Sub, Mul };
    Op op = Op::Leaf;
    bool isElement = false;  // Leaf: an element, or else the constant
    ElementRef element;
    std::int64_t constant = 0;
    std::shared_ptr<const Term> a, b;  // Add, Sub, Mul: the operands
  };
  Kind kind = Kind::Compare;
  frontend::CmpOp cmp = frontend::CmpOp::Eq;
  Term lhs, rhs;  // Compare
  ClaimPtr a, b;  // And, Or (a, b); Not (a)
};

/// Parses an --assert claim; `option` names it in diagnostics. Throws model::UserError.
ClaimPtr parseClaim(const std::string& text, const std::string& option);
/// Parses an --observe location. Throws model::UserError.
ElementRef parseElement(const std::string& text, const std::string& option);
/// The elements a claim names, in order of appearance, without repetitions.
std::vector<ElementRef> elementsOf(const Claim& claim);
/// The claim's truth for the given element values.
bool evaluateClaim(const Claim& claim, const std::function<std::int64_t(const ElementRef&)>& value);

}  // namespace ptxmm::checker::kernel
