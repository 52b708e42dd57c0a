// Values as terms: what a write stores, what a branch tests, what a register holds at the end, written over
// constants, registers and the values returned by reads. The unroller builds them over registers; the engines
// substitute registers away along a control-flow path and evaluate the result once reads-from is chosen (the
// explicit engine) or translate it to a solver term (the Z3 engine). Values are 64-bit signed integers; PTX
// type suffixes are not modelled (a documented limit). `opaque(x)` stands for a value ptxmm does not compute (a
// kernel's float arithmetic on loaded values, a clock): it depends on x's reads but its value is 0 in every
// engine, and whatever it decides (a branch, a final value) is reported as UNKNOWN, never as a verdict.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxmm::model {

// X(enum name, arity, printed symbol). Arity 0 ops are leaves.
#define PTXMM_VALUE_OPS(X) \
  X(Const, 0, "")          \
  X(Reg, 0, "")            \
  X(Read, 0, "")           \
  X(Add, 2, "+")           \
  X(Sub, 2, "-")           \
  X(Mul, 2, "*")           \
  X(Div, 2, "/")           \
  X(Rem, 2, "%")           \
  X(And, 2, "&")           \
  X(Or, 2, "|")            \
  X(Xor, 2, "^")           \
  X(Shl, 2, "<<")          \
  X(Shr, 2, ">>")          \
  X(Min, 2, "min")         \
  X(Max, 2, "max")         \
  X(Eq, 2, "==")           \
  X(Ne, 2, "!=")           \
  X(Lt, 2, "<")            \
  X(Le, 2, "<=")           \
  X(Gt, 2, ">")            \
  X(Ge, 2, ">=")           \
  X(LAnd, 2, "&&")         \
  X(LOr, 2, "||")          \
  X(Neg, 1, "-")           \
  X(Not, 1, "~")           \
  X(LNot, 1, "!")          \
  X(Ite, 3, "?")           \
  X(Opaque, 1, "opaque")

enum class ValueOp : std::uint8_t {
#define PTXMM_ENUM(name, arity, symbol) name,
  PTXMM_VALUE_OPS(PTXMM_ENUM)
#undef PTXMM_ENUM
};

struct ValueExpr;
using ValuePtr = std::shared_ptr<const ValueExpr>;

struct ValueExpr {
  ValueOp op = ValueOp::Const;
  std::int64_t constant = 0;  // Const
  int index = -1;             // Reg: register id of the thread; Read: event id of the read
  std::vector<ValuePtr> args;
};

namespace value {

ValuePtr constant(std::int64_t v);
ValuePtr reg(int id);
ValuePtr read(int eventId);
/// An operator node; folds when every argument is a constant (no division by a constant zero is folded).
ValuePtr apply(ValueOp op, std::vector<ValuePtr> args);

/// Applies one operator to concrete arguments, as ValueSemantics.hpp defines it for every engine (division and
/// remainder by zero give 0: PTX leaves them undefined and litmus tests do not rely on them; shifts clamp their
/// amount to 0..63).
std::int64_t applyConcrete(ValueOp op, const std::vector<std::int64_t>& args);

/// Replaces every Reg leaf by regs[id] (registers the map does not cover stay as they are).
ValuePtr substitute(const ValuePtr& e, const std::vector<ValuePtr>& regs);

/// Evaluates a term whose leaves are constants and reads; `readValue` returns nullopt when a read's value is
/// not determined, which makes the result nullopt.
std::optional<std::int64_t> evaluate(const ValueExpr& e, const std::function<std::optional<std::int64_t>(int)>& readValue);

/// Appends the event ids of the Read leaves of e (with duplicates removed).
void collectReads(const ValueExpr& e, std::vector<int>& out);

/// A readable rendering, naming registers and reads through the callbacks.
std::string print(const ValueExpr& e, const std::function<std::string(int)>& regName,
                  const std::function<std::string(int)>& readName);

/// Operator arity from the table.
int arity(ValueOp op);

}  // namespace value
}  // namespace ptxmm::model
