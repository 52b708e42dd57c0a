// Values as terms: what a write stores, what a branch tests, what a register holds at the end, written over
// constants, registers and the values returned by reads. The unroller builds them over registers; the engines
// substitute registers away along a control-flow path and evaluate the result once reads-from is chosen (the
// explicit engine) or translate it to a solver term (the Z3 engine). Values are 64-bit signed integers; PTX
// type suffixes are not modelled (a documented limit). What each operator means is ValueSemantics.hpp's.
// `opaque(x)` stands for a value ptxmm does not compute (a kernel's float arithmetic on loaded values, a clock):
// it depends on x's reads but its value is 0 in every engine, and whatever it decides (a branch, a final value)
// is reported as UNKNOWN, never as a verdict.
//
// Terms are DAGs: a register read twice shares its term, so a chain of `add r, r, r` is linear in size but its
// tree is exponential, and a register updated by thousands of instructions is thousands of levels deep. Every
// function here walks a term without recursion and visits a shared node once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptxmm::model {

// X(enum name, arity, printed symbol). Arity 0 ops are leaves.
#define PTXMM_VALUE_OPS(X) \
  X(Const, 0, "")           \
  X(Reg, 0, "")             \
  X(Read, 0, "")            \
  X(Add, 2, "+")            \
  X(Sub, 2, "-")            \
  X(Mul, 2, "*")            \
  X(Div, 2, "/")            \
  X(Rem, 2, "%")            \
  X(And, 2, "&")            \
  X(Or, 2, "|")             \
  X(Xor, 2, "^")            \
  X(Shl, 2, "<<")           \
  X(Shr, 2, ">>")           \
  X(Min, 2, "min")          \
  X(Max, 2, "max")          \
  X(Eq, 2, "==")            \
  X(Ne, 2, "!=")            \
  X(Lt, 2, "<")             \
  X(Le, 2, "<=")            \
  X(Gt, 2, ">")             \
  X(Ge, 2, ">=")            \
  X(LAnd, 2, "&&")          \
  X(LOr, 2, "||")           \
  X(Neg, 1, "-")            \
  X(Not, 1, "~")            \
  X(LNot, 1, "!")           \
  X(Ite, 3, "?")            \
  X(Opaque, 1, "opaque")

enum class ValueOp : std::uint8_t {
#define PTXMM_ENUM(name, arity, symbol) name,
  PTXMM_VALUE_OPS(PTXMM_ENUM)
#undef PTXMM_ENUM
};

struct ValueExpr;
using ValuePtr = std::shared_ptr<const ValueExpr>;

struct ValueExpr {
  // What occurs somewhere in the term, so walks can skip whole subterms.
  static constexpr std::uint8_t kHasReg = 1, kHasRead = 2, kHasPartial = 4;  // kHasPartial: a div or rem

  ValueOp op = ValueOp::Const;
  std::int64_t constant = 0;  // Const
  int index = -1;             // Reg: register id of the thread; Read: event id of the read
  std::uint8_t contains = 0;  // kHas* bits
  std::vector<ValuePtr> args;

  ValueExpr() = default;
  ValueExpr(const ValueExpr&) = delete;
  ValueExpr& operator=(const ValueExpr&) = delete;
  ~ValueExpr();
};

namespace value {

ValuePtr constant(std::int64_t v);
ValuePtr reg(int id);
ValuePtr read(int eventId);
/// An operator node; folds when every argument is a constant, except a division or remainder by zero, which
/// stays a term so that evaluations can tell they need its unspecified result.
ValuePtr apply(ValueOp op, std::vector<ValuePtr> args);

/// Applies one operator to concrete arguments, as ValueSemantics.hpp defines it for every engine (a division by
/// zero gives 0 here; evaluations that need it are flagged there).
std::int64_t applyConcrete(ValueOp op, const std::vector<std::int64_t>& args);

/// Replaces every Reg leaf by regs[id] (registers the map does not cover stay as they are).
ValuePtr substitute(const ValuePtr& e, const std::vector<ValuePtr>& regs);

/// Evaluates a term whose leaves are constants and reads; `readValue` returns nullopt when a read's value is
/// not determined, which makes the result nullopt. When `unspecified` is given it is set to whether the value
/// depends on a result PTX leaves unspecified (a division by zero; ValueSemantics.hpp).
std::optional<std::int64_t> evaluate(const ValuePtr& e, const std::function<std::optional<std::int64_t>(int)>& readValue,
                                     bool* unspecified = nullptr);

/// Appends the event ids of the Read leaves of e (with duplicates removed).
void collectReads(const ValuePtr& e, std::vector<int>& out);
/// Appends the register ids of the Reg leaves of e (with duplicates removed).
void collectRegs(const ValuePtr& e, std::vector<int>& out);

/// Whether e has an Opaque node: a value (float arithmetic, a clock, a warp collective over loaded values) the
/// engines evaluate as 0 but nobody knows, so it forces nothing.
bool containsOpaque(const ValuePtr& e);

/// Operator arity from the table.
int arity(ValueOp op);

/// The term as text (infix, fully parenthesised; `opaque(x)`), registers and reads named by the callbacks; two
/// terms print alike exactly when they are the same term up to sharing.
std::string print(const ValuePtr& e, const std::function<std::string(int)>& regName,
                  const std::function<std::string(int)>& readName);

/// Post-order fold over the DAG under `root` without recursion: `leaf(p)` gives the result of a leaf or of a
/// node `stop(p)` selects (its children are not visited), `node(p, args)` that of an operator from its arguments'
/// results (arity(p->op) of them, in order). A node referenced more than once is folded once.
template <class R, class Stop, class Leaf, class Node>
R fold(const ValuePtr& root, Stop stop, Leaf leaf, Node node) {
  auto isLeaf = [&](const ValuePtr& p) { return p->args.empty() || stop(p); };
  if (isLeaf(root)) return leaf(root);
  struct Frame {
    const ValuePtr* term;
    std::size_t next;  // the next argument to visit
    std::size_t base;  // where its arguments' results start in `results`
  };
  std::vector<Frame> frames{{&root, 0, 0}};
  std::vector<R> results;
  std::unordered_map<const ValueExpr*, R> memo;
  for (;;) {
    Frame& f = frames.back();
    const ValueExpr& e = **f.term;
    if (f.next < e.args.size()) {
      const ValuePtr& child = e.args[f.next++];
      if (isLeaf(child)) {
        results.push_back(leaf(child));
      } else if (auto it = child.use_count() > 1 ? memo.find(child.get()) : memo.end(); it != memo.end()) {
        results.push_back(it->second);
      } else {
        frames.push_back({&child, 0, results.size()});
      }
      continue;
    }
    R r = node(*f.term, results.data() + f.base);
    results.erase(results.begin() + static_cast<std::ptrdiff_t>(f.base), results.end());
    const ValuePtr* done = f.term;
    frames.pop_back();
    if (frames.empty()) return r;
    if (done->use_count() > 1) memo.emplace(done->get(), r);
    results.push_back(std::move(r));
  }
}

}  // namespace value
}  // namespace ptxmm::model
