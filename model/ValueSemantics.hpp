// The meaning of every register operator (ValueExpr.hpp), written ONCE over an algebra of 64-bit values, so the
// explicit engine (concrete integers) and the Z3 engine (bit-vector terms) compute the same function by
// construction. The algebra provides SMT-LIB's total bit-vector primitives (bvshl is 0 for amounts >= 64, bvashr
// fills with the sign, bvsdiv(INT64_MIN, -1) wraps); this file says how PTX's operations map onto them:
//   * add, sub, mul (mul.lo), neg wrap around in two's complement (PTX: "the result is truncated");
//   * shl / shr take the amount as unsigned (PTX: an unsigned .u32 operand, amounts above the register width
//     clamped to it), so shl by >= 64 is 0, shr by >= 64 is 0 or -1 (shr of signed values fills with the sign;
//     type suffixes are not modelled, values are signed);
//   * div / rem truncate toward zero; INT64_MIN / -1 wraps to INT64_MIN (and its remainder is 0);
//   * div / rem by zero: PTX leaves the result unspecified, so the value is 0 here and `unspecified` flags every
//     evaluation that depends on it: the engines make an execution whose outcome needs such a value UNKNOWN.
// An algebra A provides `using Value`, `using Bool` and the members used below; both Values and Bools must be
// copyable.
#pragma once

#include <cstdint>
#include <limits>

#include "model/ValueExpr.hpp"

namespace ptxmm::model::semantics {

/// The value of operator `op` (not a leaf) on argument values `x` (arity(op) of them).
template <class A>
typename A::Value apply(A& a, ValueOp op, const typename A::Value* x) {
  using V = typename A::Value;
  const V zero = a.constant(0);
  auto flag = [&](const typename A::Bool& b) { return a.ite(b, a.constant(1), zero); };
  auto nonZero = [&](const V& v) { return a.lnot(a.eq(v, zero)); };
  switch (op) {
    case ValueOp::Add: return a.add(x[0], x[1]);
    case ValueOp::Sub: return a.sub(x[0], x[1]);
    case ValueOp::Mul: return a.mul(x[0], x[1]);
    case ValueOp::Div: return a.ite(a.eq(x[1], zero), zero, a.sdiv(x[0], x[1]));
    case ValueOp::Rem: return a.ite(a.eq(x[1], zero), zero, a.srem(x[0], x[1]));
    case ValueOp::And: return a.bitAnd(x[0], x[1]);
    case ValueOp::Or: return a.bitOr(x[0], x[1]);
    case ValueOp::Xor: return a.bitXor(x[0], x[1]);
    case ValueOp::Shl: return a.shl(x[0], x[1]);
    case ValueOp::Shr: return a.ashr(x[0], x[1]);
    case ValueOp::Min: return a.ite(a.slt(x[0], x[1]), x[0], x[1]);
    case ValueOp::Max: return a.ite(a.slt(x[1], x[0]), x[0], x[1]);
    case ValueOp::Eq: return flag(a.eq(x[0], x[1]));
    case ValueOp::Ne: return flag(a.lnot(a.eq(x[0], x[1])));
    case ValueOp::Lt: return flag(a.slt(x[0], x[1]));
    case ValueOp::Le: return flag(a.lnot(a.slt(x[1], x[0])));
    case ValueOp::Gt: return flag(a.slt(x[1], x[0]));
    case ValueOp::Ge: return flag(a.lnot(a.slt(x[0], x[1])));
    case ValueOp::LAnd: return flag(a.land(nonZero(x[0]), nonZero(x[1])));
    case ValueOp::LOr: return flag(a.lor(nonZero(x[0]), nonZero(x[1])));
    case ValueOp::Neg: return a.sub(zero, x[0]);
    case ValueOp::Not: return a.bitNot(x[0]);
    case ValueOp::LNot: return flag(a.eq(x[0], zero));
    case ValueOp::Ite: return a.ite(nonZero(x[0]), x[1], x[2]);
    // A value ptxmm does not compute (a kernel's float, a clock): 0 in both engines so that they agree; the kernel
    // checker reports whatever it decides as UNKNOWN.
    case ValueOp::Opaque: return zero;
    case ValueOp::Const:
    case ValueOp::Reg:
    case ValueOp::Read: break;
  }
  return zero;  // leaves have no application; callers never ask
}

/// Whether evaluating operator `op` on `x` needs a value PTX leaves unspecified, given which arguments `u` already
/// do. An if-then-else only needs the branch it takes.
template <class A>
typename A::Bool unspecified(A& a, ValueOp op, const typename A::Value* x, const typename A::Bool* u) {
  switch (op) {
    case ValueOp::Ite: return a.lor(u[0], a.ite(a.lnot(a.eq(x[0], a.constant(0))), u[1], u[2]));
    case ValueOp::Div:
    case ValueOp::Rem: return a.lor(a.lor(u[0], u[1]), a.eq(x[1], a.constant(0)));
    default: break;
  }
  typename A::Bool any = u[0];
  for (int i = 1; i < value::arity(op); ++i) any = a.lor(any, u[i]);
  return any;
}

/// The algebra of concrete 64-bit values: SMT-LIB's bit-vector primitives on std::int64_t, without undefined
/// behaviour in C++.
struct Concrete {
  using Value = std::int64_t;
  using Bool = bool;

  static std::uint64_t u(Value v) { return static_cast<std::uint64_t>(v); }
  static Value s(std::uint64_t v) { return static_cast<Value>(v); }

  Value constant(std::int64_t v) const { return v; }
  Value add(Value x, Value y) const { return s(u(x) + u(y)); }
  Value sub(Value x, Value y) const { return s(u(x) - u(y)); }
  Value mul(Value x, Value y) const { return s(u(x) * u(y)); }
  // bvsdiv / bvsrem: by zero -1 or 1 / the dividend (never reached through apply, which tests zero first).
  Value sdiv(Value x, Value y) const {
    if (y == 0) return x < 0 ? 1 : -1;
    if (y == -1) return s(0 - u(x));  // INT64_MIN / -1 wraps
    return x / y;
  }
  Value srem(Value x, Value y) const {
    if (y == 0) return x;
    if (y == -1) return 0;
    return x % y;
  }
  Value bitAnd(Value x, Value y) const { return x & y; }
  Value bitOr(Value x, Value y) const { return x | y; }
  Value bitXor(Value x, Value y) const { return x ^ y; }
  Value bitNot(Value x) const { return ~x; }
  Value shl(Value x, Value n) const { return u(n) >= 64 ? 0 : s(u(x) << u(n)); }
  Value ashr(Value x, Value n) const { return u(n) >= 64 ? (x < 0 ? -1 : 0) : x >> u(n); }
  Bool eq(Value x, Value y) const { return x == y; }
  Bool slt(Value x, Value y) const { return x < y; }
  Bool lnot(Bool b) const { return !b; }
  Bool land(Bool x, Bool y) const { return x && y; }
  Bool lor(Bool x, Bool y) const { return x || y; }
  Value ite(Bool c, Value t, Value e) const { return c ? t : e; }
  Bool ite(Bool c, Bool t, Bool e) const { return c ? t : e; }
};

}  // namespace ptxmm::model::semantics
