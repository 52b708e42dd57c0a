// The Z3 algebra of model/ValueSemantics.hpp and the term encoder (ValueEncoding.hpp).
#include "checker/z3/ValueEncoding.hpp"

#include <vector>

#include "model/ValueSemantics.hpp"

namespace ptxmm::checker::z3enc {
namespace {

// SMT-LIB's bit-vector primitives, which Z3 implements as ValueSemantics.hpp expects (bvshl, bvashr, bvsdiv, ...).
struct Z3Algebra {
  using Value = z3::expr;
  using Bool = z3::expr;
  z3::context& ctx;

  Value constant(std::int64_t v) const { return ctx.bv_val(v, kValueBits); }
  Value add(const Value& x, const Value& y) const { return x + y; }
  Value sub(const Value& x, const Value& y) const { return x - y; }
  Value mul(const Value& x, const Value& y) const { return x * y; }
  Value sdiv(const Value& x, const Value& y) const { return x / y; }  // z3++: bvsdiv on bit vectors
  Value srem(const Value& x, const Value& y) const { return z3::srem(x, y); }
  Value bitAnd(const Value& x, const Value& y) const { return x & y; }
  Value bitOr(const Value& x, const Value& y) const { return x | y; }
  Value bitXor(const Value& x, const Value& y) const { return x ^ y; }
  Value bitNot(const Value& x) const { return ~x; }
  Value shl(const Value& x, const Value& n) const { return z3::shl(x, n); }
  Value ashr(const Value& x, const Value& n) const { return z3::ashr(x, n); }
  Bool eq(const Value& x, const Value& y) const { return x == y; }
  Bool slt(const Value& x, const Value& y) const { return x < y; }  // z3++: signed on bit vectors
  Bool lnot(const Bool& b) const { return !b; }
  Bool land(const Bool& x, const Bool& y) const { return x && y; }
  // The unspecified flags are `false` almost everywhere: keep them that way instead of building `false || false`.
  Bool lor(const Bool& x, const Bool& y) const {
    if (x.is_false() || y.is_true()) return y;
    if (y.is_false() || x.is_true()) return x;
    return x || y;
  }
  Value ite(const Bool& c, const Value& t, const Value& e) const { return z3::eq(t, e) ? t : z3::ite(c, t, e); }
};

}  // namespace

SymValue encodeValue(z3::context& ctx, const model::ValuePtr& term, const std::function<SymValue(int)>& reg,
                     const std::function<z3::expr(int)>& read) {
  Z3Algebra a{ctx};
  return model::value::fold<SymValue>(
      term, [](const model::ValuePtr&) { return false; },
      [&](const model::ValuePtr& p) -> SymValue {
        switch (p->op) {
          case model::ValueOp::Reg: return reg(p->index);
          case model::ValueOp::Read: return {read(p->index), ctx.bool_val(false)};
          default: return {a.constant(p->constant), ctx.bool_val(false)};
        }
      },
      [&](const model::ValuePtr& p, const SymValue* args) -> SymValue {
        std::vector<z3::expr> values, unspecified;
        for (std::size_t i = 0; i < p->args.size(); ++i) {
          values.push_back(args[i].value);
          unspecified.push_back(args[i].unspecified);
        }
        return {model::semantics::apply(a, p->op, values.data()),
                model::semantics::unspecified(a, p->op, values.data(), unspecified.data())};
      });
}

}  // namespace ptxmm::checker::z3enc
