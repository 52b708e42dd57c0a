// Observed keys and condition evaluation (Outcome.hpp).
#include "checker/Outcome.hpp"

#include "frontend/ConditionWalk.hpp"
#include "model/Deadline.hpp"

#include <algorithm>
#include <cassert>
#include <sstream>
#include <tuple>

namespace ptxmm::checker {

using frontend::CondExpr;
using frontend::CondValue;

std::vector<ObservedKey> observedKeys(const frontend::Program& program, const model::EventGraph& graph) {
  std::vector<ObservedKey> regs, locs;
  auto add = [&](const CondValue& v) {
    if (v.kind == CondValue::Kind::Register) {
      const auto& t = graph.threads.at(static_cast<std::size_t>(v.thread));
      const auto it = std::find(t.registers.begin(), t.registers.end(), v.name);
      assert(it != t.registers.end() && "the unroller registers every observed register");
      const int reg = static_cast<int>(it - t.registers.begin());
      if (std::none_of(regs.begin(), regs.end(), [&](const ObservedKey& k) { return k.thread == v.thread && k.reg == reg; }))
        regs.push_back({ObservedKey::Kind::Register, v.thread, reg, -1, v.name, t.name + ":" + v.name});
    } else if (v.kind == CondValue::Kind::Location) {
      const int p = graph.physicalOf(v.name);
      if (std::none_of(locs.begin(), locs.end(), [&](const ObservedKey& k) { return k.display == v.name; }))
        locs.push_back({ObservedKey::Kind::Location, -1, -1, p, v.name, v.name});
    }
  };
  for (const auto& v : program.observed) add(v);
  frontend::forEachCondValue(program.condition.expr.get(), add);
  frontend::forEachCondValue(program.filter.get(), add);
  std::sort(regs.begin(), regs.end(), [&](const ObservedKey& a, const ObservedKey& b) {
    const auto& ta = graph.threads[static_cast<std::size_t>(a.thread)].registers;
    const auto& tb = graph.threads[static_cast<std::size_t>(b.thread)].registers;
    return std::tie(a.thread, ta[static_cast<std::size_t>(a.reg)]) < std::tie(b.thread, tb[static_cast<std::size_t>(b.reg)]);
  });
  std::sort(locs.begin(), locs.end(), [](const ObservedKey& a, const ObservedKey& b) { return a.display < b.display; });
  regs.insert(regs.end(), locs.begin(), locs.end());
  return regs;
}

namespace {

std::int64_t valueOf(const CondValue& v, const std::vector<ObservedKey>& keys, const std::vector<std::int64_t>& values) {
  if (v.kind == CondValue::Kind::Constant) return v.value;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto& k = keys[i];
    const bool match = v.kind == CondValue::Kind::Register
                           ? k.kind == ObservedKey::Kind::Register && k.thread == v.thread && k.name == v.name
                           : k.kind == ObservedKey::Kind::Location && k.name == v.name;
    if (match) return values[i];
  }
  assert(!"every condition value is an observed key");
  return 0;
}

}  // namespace

bool satisfies(const CondExpr& e, const std::vector<ObservedKey>& keys, const std::vector<std::int64_t>& values) {
  // char, not bool: the fold keeps its results in a vector.
  return frontend::foldCondition<char>(
      e,
      [&](const CondExpr& leaf) -> char {
        if (leaf.kind != CondExpr::Kind::Compare) return leaf.kind == CondExpr::Kind::True;
        const auto l = valueOf(leaf.lhs, keys, values);
        const auto r = valueOf(leaf.rhs, keys, values);
        switch (leaf.cmp) {
          case frontend::CmpOp::Eq: return l == r;
          case frontend::CmpOp::Ne: return l != r;
          case frontend::CmpOp::Lt: return l < r;
          case frontend::CmpOp::Le: return l <= r;
          case frontend::CmpOp::Gt: return l > r;
          case frontend::CmpOp::Ge: return l >= r;
        }
        return false;
      },
      [](const CondExpr& node, const char* args) -> char {
        switch (node.kind) {
          case CondExpr::Kind::And: return args[0] && args[1];
          case CondExpr::Kind::Or: return args[0] || args[1];
          default: return !args[0];  // Not
        }
      });
}

void decideCondition(TestResult& r) {
  const bool any = std::any_of(r.states.begin(), r.states.end(), [](const FinalState& s) { return s.satisfies; });
  const bool all = std::all_of(r.states.begin(), r.states.end(), [](const FinalState& s) { return s.satisfies; });
  switch (r.quantifier) {
    case frontend::Condition::Quantifier::Exists: r.holds = any; break;
    case frontend::Condition::Quantifier::NotExists: r.holds = !any; break;
    case frontend::Condition::Quantifier::Forall: r.holds = all; break;
  }
}

std::string explainedTarget(frontend::Condition::Quantifier q, const std::string& text) {
  const bool wrapped = text.size() >= 2 && text.front() == '(' && text.back() == ')';
  return (q == frontend::Condition::Quantifier::Forall ? "~" : "") + (wrapped ? text : "(" + text + ")");
}

std::optional<Explanation> allowedExplanation(const TestResult& r) {
  // The outcome asked about is the proposition itself, except for forall, which asks whether it can fail.
  const bool wanted = r.quantifier != frontend::Condition::Quantifier::Forall;
  for (const auto& s : r.states)
    if (s.satisfies == wanted && s.witness) {
      Explanation e;
      e.targetText = explainedTarget(r.quantifier, r.conditionText);
      e.allowed = true;
      e.witness = s.witness;
      return e;
    }
  return std::nullopt;
}

std::string quantifierName(frontend::Condition::Quantifier q) {
  switch (q) {
    case frontend::Condition::Quantifier::Exists: return "exists";
    case frontend::Condition::Quantifier::NotExists: return "~exists";
    case frontend::Condition::Quantifier::Forall: return "forall";
  }
  return "exists";
}

TestResult errorResult(const std::string& file, const model::UserError& error) {
  TestResult r;
  r.file = file;
  r.status = Status::Error;
  r.reason = error.what();
  return r;
}

std::string timeoutReason(double seconds) { return model::Deadline::reason(seconds); }

std::string outOfMemoryReason() { return "out of memory (the process's memory limit, --max-memory, was reached)"; }

std::string noExecutionNote() {
  return "the model permits no execution of this test at all, so the condition is decided vacuously (exists fails, "
         "~exists and forall hold); the usual cause is a barrier that can never complete";
}

std::string unspecifiedReason() {
  return "an execution divides by zero (div or rem), whose result PTX leaves unspecified";
}

}  // namespace ptxmm::checker
