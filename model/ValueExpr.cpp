// Construction, substitution and evaluation of value terms (ValueExpr.hpp), all without recursion.
#include "model/ValueExpr.hpp"

#include <algorithm>
#include <array>
#include <cassert>

#include "model/TreeRelease.hpp"
#include "model/ValueSemantics.hpp"

namespace ptxmm::model {
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

ChildSlots<ValueExpr> slotsOf(ValueExpr& e) {
  ChildSlots<ValueExpr> s;
  s.count = e.args.size();
  for (std::size_t i = 0; i < s.count; ++i) s.slot[i] = &e.args[i];
  return s;
}

ValuePtr leaf(ValueOp op, std::int64_t constant, int index, std::uint8_t contains) {
  auto e = std::make_shared<ValueExpr>();
  e->op = op;
  e->constant = constant;
  e->index = index;
  e->contains = contains;
  return e;
}

}  // namespace

ValueExpr::~ValueExpr() { releaseChildren(*this, slotsOf); }

namespace value {

int arity(ValueOp op) { return kOps[static_cast<std::size_t>(op)].arity; }

ValuePtr constant(std::int64_t v) { return leaf(ValueOp::Const, v, -1, 0); }
ValuePtr reg(int id) { return leaf(ValueOp::Reg, 0, id, ValueExpr::kHasReg); }
ValuePtr read(int eventId) { return leaf(ValueOp::Read, 0, eventId, ValueExpr::kHasRead); }

std::int64_t applyConcrete(ValueOp op, const std::vector<std::int64_t>& args) {
  semantics::Concrete c;
  return semantics::apply(c, op, args.data());
}

ValuePtr apply(ValueOp op, std::vector<ValuePtr> args) {
  assert(static_cast<int>(args.size()) == arity(op) && arity(op) > 0);
  if (op == ValueOp::Ite && args[0]->op == ValueOp::Const) return args[0]->constant != 0 ? args[1] : args[2];
  const bool partial = op == ValueOp::Div || op == ValueOp::Rem;
  const bool constants =
      std::all_of(args.begin(), args.end(), [](const ValuePtr& a) { return a->op == ValueOp::Const; });
  // An opaque value stays a node even over constants: the engines evaluate it as 0, but whoever asks whether a
  // value is known (final values, forced reads) must see that it is not (a folded 0 was taken for a real value).
  if (constants && op != ValueOp::Opaque && !(partial && args[1]->constant == 0)) {
    std::array<std::int64_t, 3> vals{};
    for (std::size_t i = 0; i < args.size(); ++i) vals[i] = args[i]->constant;
    semantics::Concrete c;
    return constant(semantics::apply(c, op, vals.data()));
  }
  auto e = std::make_shared<ValueExpr>();
  e->op = op;
  e->contains = partial ? ValueExpr::kHasPartial : 0;
  for (const auto& a : args) e->contains |= a->contains;
  e->args = std::move(args);
  return e;
}

ValuePtr substitute(const ValuePtr& e, const std::vector<ValuePtr>& regs) {
  return fold<ValuePtr>(
      e, [](const ValuePtr& p) { return !(p->contains & ValueExpr::kHasReg); },
      [&](const ValuePtr& p) {
        if (p->op != ValueOp::Reg) return p;
        const auto id = static_cast<std::size_t>(p->index);
        return id < regs.size() && regs[id] ? regs[id] : p;
      },
      [](const ValuePtr& p, const ValuePtr* args) {
        bool changed = false;
        for (std::size_t i = 0; i < p->args.size(); ++i) changed |= args[i] != p->args[i];
        return changed ? apply(p->op, std::vector<ValuePtr>(args, args + p->args.size())) : p;
      });
}

std::optional<std::int64_t> evaluate(const ValuePtr& e, const std::function<std::optional<std::int64_t>(int)>& readValue,
                                     bool* unspecified) {
  // The value and whether it needs an unspecified result; nullopt values propagate.
  struct Result {
    std::optional<std::int64_t> value;
    bool unspecified = false;
  };
  semantics::Concrete c;
  const Result r = fold<Result>(
      e, [](const ValuePtr&) { return false; },
      [&](const ValuePtr& p) -> Result {
        switch (p->op) {
          case ValueOp::Const: return {p->constant};
          case ValueOp::Read: return {readValue(p->index)};
          default: assert(!"registers must be substituted before evaluation"); return {};
        }
      },
      [&](const ValuePtr& p, const Result* args) -> Result {
        std::array<std::int64_t, 3> vals{};
        std::array<bool, 3> unspec{};
        for (std::size_t i = 0; i < p->args.size(); ++i) {
          if (!args[i].value) return {};
          vals[i] = *args[i].value;
          unspec[i] = args[i].unspecified;
        }
        return {semantics::apply(c, p->op, vals.data()), semantics::unspecified(c, p->op, vals.data(), unspec.data())};
      });
  if (unspecified) *unspecified = r.unspecified;
  return r.value;
}

namespace {

// Appends the index of every `leafOp` leaf of e (without duplicates); `has` is the kHas* bit that says a subterm
// holds such leaves. The fold's result carries nothing (a char, as std::vector<bool> has no data()).
void collectLeaves(const ValuePtr& e, ValueOp leafOp, std::uint8_t has, std::vector<int>& out) {
  fold<char>(
      e, [&](const ValuePtr& p) { return !(p->contains & has); },
      [&](const ValuePtr& p) {
        if (p->op == leafOp && std::find(out.begin(), out.end(), p->index) == out.end()) out.push_back(p->index);
        return char{};
      },
      [](const ValuePtr&, const char*) { return char{}; });
}

}  // namespace

void collectReads(const ValuePtr& e, std::vector<int>& out) { collectLeaves(e, ValueOp::Read, ValueExpr::kHasRead, out); }

void collectRegs(const ValuePtr& e, std::vector<int>& out) { collectLeaves(e, ValueOp::Reg, ValueExpr::kHasReg, out); }

bool containsOpaque(const ValuePtr& e) {
  const auto opaque = [](const ValuePtr& p) { return static_cast<char>(p->op == ValueOp::Opaque); };
  return fold<char>(e, opaque, opaque, [](const ValuePtr& p, const char* a) {
    return static_cast<char>(std::any_of(a, a + arity(p->op), [](char b) { return b != 0; }));
  });
}

std::string print(const ValuePtr& e, const std::function<std::string(int)>& regName,
                  const std::function<std::string(int)>& readName) {
  return fold<std::string>(
      e, [](const ValuePtr&) { return false; },
      [&](const ValuePtr& p) {
        switch (p->op) {
          case ValueOp::Reg: return regName(p->index);
          case ValueOp::Read: return readName(p->index);
          default: return std::to_string(p->constant);
        }
      },
      [](const ValuePtr& p, const std::string* a) {
        const std::string sym = kOps[static_cast<std::size_t>(p->op)].symbol;
        switch (p->op) {
          case ValueOp::Ite: return "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
          case ValueOp::Min:
          case ValueOp::Max:
          case ValueOp::Opaque: return sym + "(" + a[0] + (arity(p->op) == 2 ? ", " + a[1] : std::string()) + ")";
          default: break;
        }
        return arity(p->op) == 1 ? sym + a[0] : "(" + a[0] + " " + sym + " " + a[1] + ")";
      });
}

}  // namespace value
}  // namespace ptxmm::model
