// Construction, substitution and evaluation of value terms (ValueExpr.hpp).
#include "model/ValueExpr.hpp"

#include <algorithm>
#include <array>
#include <cassert>

#include "model/ValueSemantics.hpp"

namespace ptxmm::model::value {
namespace {

struct OpRow {
  int arity;
  const char* symbol;
};
constexpr std::array kOps = {
#define PTXMM_ROW(name, arity, symbol) OpRow{arity, symbol},
    PTXMM_VALUE_OPS(PTXMM_ROW)
#undef PTXMM_ROW
};

const OpRow& row(ValueOp op) { return kOps[static_cast<std::size_t>(op)]; }

// 64-bit integers for applyOperator (ValueSemantics.hpp): wrapping arithmetic, since overflowing litmus
// arithmetic must be defined, not UB.
struct Concrete {
  using Value = std::int64_t;
  static std::uint64_t u(std::int64_t v) { return static_cast<std::uint64_t>(v); }
  static std::int64_t wrap(std::uint64_t v) { return static_cast<std::int64_t>(v); }
  Value constant(std::int64_t c) const { return c; }
  Value add(Value a, Value b) const { return wrap(u(a) + u(b)); }
  Value sub(Value a, Value b) const { return wrap(u(a) - u(b)); }
  Value mul(Value a, Value b) const { return wrap(u(a) * u(b)); }
  Value sdiv(Value a, Value b) const { return a / b; }
  Value srem(Value a, Value b) const { return a % b; }
  Value bitAnd(Value a, Value b) const { return a & b; }
  Value bitOr(Value a, Value b) const { return a | b; }
  Value bitXor(Value a, Value b) const { return a ^ b; }
  Value shl(Value a, Value amount) const { return wrap(u(a) << amount); }
  Value ashr(Value a, Value amount) const { return a >> amount; }
  Value neg(Value a) const { return wrap(0 - u(a)); }
  Value bitNot(Value a) const { return ~a; }
  bool eq(Value a, Value b) const { return a == b; }
  bool ne(Value a, Value b) const { return a != b; }
  bool lt(Value a, Value b) const { return a < b; }
  bool le(Value a, Value b) const { return a <= b; }
  bool gt(Value a, Value b) const { return a > b; }
  bool ge(Value a, Value b) const { return a >= b; }
  bool land(bool a, bool b) const { return a && b; }
  bool lor(bool a, bool b) const { return a || b; }
  bool lnot(bool a) const { return !a; }
  template <class Then, class Else>
  Value ite(bool c, Then then, Else otherwise) const {
    return c ? then() : otherwise();
  }
  Value unreachable() const {
    assert(!"leaf operators have no concrete application");
    return 0;
  }
};

}  // namespace

int arity(ValueOp op) { return row(op).arity; }

ValuePtr constant(std::int64_t v) {
  auto e = std::make_shared<ValueExpr>();
  e->op = ValueOp::Const;
  e->constant = v;
  return e;
}

ValuePtr reg(int id) {
  auto e = std::make_shared<ValueExpr>();
  e->op = ValueOp::Reg;
  e->index = id;
  return e;
}

ValuePtr read(int eventId) {
  auto e = std::make_shared<ValueExpr>();
  e->op = ValueOp::Read;
  e->index = eventId;
  return e;
}

std::int64_t applyConcrete(ValueOp op, const std::vector<std::int64_t>& a) { return applyOperator(Concrete{}, op, a); }

ValuePtr apply(ValueOp op, std::vector<ValuePtr> args) {
  assert(static_cast<int>(args.size()) == arity(op) && arity(op) > 0);
  if (op == ValueOp::Ite && args[0]->op == ValueOp::Const) return args[0]->constant != 0 ? args[1] : args[2];
  if (std::all_of(args.begin(), args.end(), [](const ValuePtr& a) { return a->op == ValueOp::Const; })) {
    std::vector<std::int64_t> vals;
    for (const auto& a : args) vals.push_back(a->constant);
    return constant(applyConcrete(op, vals));
  }
  auto e = std::make_shared<ValueExpr>();
  e->op = op;
  e->args = std::move(args);
  return e;
}

ValuePtr substitute(const ValuePtr& e, const std::vector<ValuePtr>& regs) {
  if (e->op == ValueOp::Reg) {
    const auto id = static_cast<std::size_t>(e->index);
    return id < regs.size() && regs[id] ? regs[id] : e;
  }
  if (e->args.empty()) return e;
  std::vector<ValuePtr> args;
  bool changed = false;
  for (const auto& a : e->args) {
    args.push_back(substitute(a, regs));
    changed |= args.back() != a;
  }
  return changed ? apply(e->op, std::move(args)) : e;
}

std::optional<std::int64_t> evaluate(const ValueExpr& e,
                                     const std::function<std::optional<std::int64_t>(int)>& readValue) {
  switch (e.op) {
    case ValueOp::Const: return e.constant;
    case ValueOp::Read: return readValue(e.index);
    case ValueOp::Reg: assert(!"registers must be substituted before evaluation"); return std::nullopt;
    default: break;
  }
  std::vector<std::int64_t> vals;
  for (const auto& a : e.args) {
    auto v = evaluate(*a, readValue);
    if (!v) return std::nullopt;
    vals.push_back(*v);
  }
  return applyConcrete(e.op, vals);
}

void collectReads(const ValueExpr& e, std::vector<int>& out) {
  if (e.op == ValueOp::Read) {
    if (std::find(out.begin(), out.end(), e.index) == out.end()) out.push_back(e.index);
    return;
  }
  for (const auto& a : e.args) collectReads(*a, out);
}

std::string print(const ValueExpr& e, const std::function<std::string(int)>& regName,
                  const std::function<std::string(int)>& readName) {
  switch (e.op) {
    case ValueOp::Const: return std::to_string(e.constant);
    case ValueOp::Reg: return regName(e.index);
    case ValueOp::Read: return readName(e.index);
    case ValueOp::Ite:
      return "(" + print(*e.args[0], regName, readName) + " ? " + print(*e.args[1], regName, readName) + " : " +
             print(*e.args[2], regName, readName) + ")";
    default: break;
  }
  const std::string sym = row(e.op).symbol;
  if (e.args.size() == 1) return sym + print(*e.args[0], regName, readName);
  if (e.op == ValueOp::Min || e.op == ValueOp::Max)
    return sym + "(" + print(*e.args[0], regName, readName) + ", " + print(*e.args[1], regName, readName) + ")";
  return "(" + print(*e.args[0], regName, readName) + " " + sym + " " + print(*e.args[1], regName, readName) + ")";
}

}  // namespace ptxmm::model::value
