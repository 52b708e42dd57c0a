// What every value operator means, written once for any domain of values. The explicit engine and constant
// folding evaluate terms on 64-bit integers (ValueExpr.cpp), the Z3 engine builds bit-vector terms
// (checker/z3/ProgramEncoding.cpp); both instantiate applyOperator with their domain, which supplies only the
// machine operations (wrapping +, -, *, truncating signed / and %, bitwise operations, shifts by 0..63, signed
// comparisons, and a choice that evaluates only the branch it takes). The decisions PTX leaves open are made
// here: division and remainder by zero and INT64_MIN / -1 give 0, shift amounts are clamped to 0..63, comparisons
// and logical operators give 0 or 1, a value is true when it is not 0, and an opaque value is 0.
#pragma once

#include <cstdint>
#include <vector>

#include "model/ValueExpr.hpp"

namespace ptxmm::model {

/// `op` applied to `a` (arity(op) arguments) in domain `d`. Leaves (Const, Reg, Read) are not operators.
template <class Domain>
typename Domain::Value applyOperator(const Domain& d, ValueOp op, const std::vector<typename Domain::Value>& a) {
  using Value = typename Domain::Value;
  const auto k = [&](std::int64_t c) { return d.constant(c); };
  const auto truth = [&](const auto& b) { return d.ite(b, [&] { return k(1); }, [&] { return k(0); }); };
  const auto nonzero = [&](const Value& v) { return d.ne(v, k(0)); };
  const auto definedDivision = [&](auto divide) {
    const auto undefined = d.lor(d.eq(a[1], k(0)), d.land(d.eq(a[0], k(INT64_MIN)), d.eq(a[1], k(-1))));
    return d.ite(undefined, [&] { return k(0); }, [&] { return divide(a[0], a[1]); });
  };
  const auto shiftAmount = [&] {
    return d.ite(d.lt(a[1], k(0)), [&] { return k(0); },
                 [&] { return d.ite(d.gt(a[1], k(63)), [&] { return k(63); }, [&] { return a[1]; }); });
  };
  switch (op) {
    case ValueOp::Const:
    case ValueOp::Reg:
    case ValueOp::Read: break;
    case ValueOp::Add: return d.add(a[0], a[1]);
    case ValueOp::Sub: return d.sub(a[0], a[1]);
    case ValueOp::Mul: return d.mul(a[0], a[1]);
    case ValueOp::Div: return definedDivision([&](const Value& x, const Value& y) { return d.sdiv(x, y); });
    case ValueOp::Rem: return definedDivision([&](const Value& x, const Value& y) { return d.srem(x, y); });
    case ValueOp::And: return d.bitAnd(a[0], a[1]);
    case ValueOp::Or: return d.bitOr(a[0], a[1]);
    case ValueOp::Xor: return d.bitXor(a[0], a[1]);
    case ValueOp::Shl: return d.shl(a[0], shiftAmount());
    case ValueOp::Shr: return d.ashr(a[0], shiftAmount());
    case ValueOp::Min: return d.ite(d.lt(a[0], a[1]), [&] { return a[0]; }, [&] { return a[1]; });
    case ValueOp::Max: return d.ite(d.gt(a[0], a[1]), [&] { return a[0]; }, [&] { return a[1]; });
    case ValueOp::Eq: return truth(d.eq(a[0], a[1]));
    case ValueOp::Ne: return truth(d.ne(a[0], a[1]));
    case ValueOp::Lt: return truth(d.lt(a[0], a[1]));
    case ValueOp::Le: return truth(d.le(a[0], a[1]));
    case ValueOp::Gt: return truth(d.gt(a[0], a[1]));
    case ValueOp::Ge: return truth(d.ge(a[0], a[1]));
    case ValueOp::LAnd: return truth(d.land(nonzero(a[0]), nonzero(a[1])));
    case ValueOp::LOr: return truth(d.lor(nonzero(a[0]), nonzero(a[1])));
    case ValueOp::Neg: return d.neg(a[0]);
    case ValueOp::Not: return d.bitNot(a[0]);
    case ValueOp::LNot: return truth(d.lnot(nonzero(a[0])));
    case ValueOp::Ite: return d.ite(nonzero(a[0]), [&] { return a[1]; }, [&] { return a[2]; });
    // A value ptxmm does not model (a float, a clock): 0 in every domain, so the engines agree on it; whoever
    // decides something from it reports UNKNOWN (ValueExpr.hpp).
    case ValueOp::Opaque: return k(0);
  }
  return d.unreachable();
}

}  // namespace ptxmm::model
