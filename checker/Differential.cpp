// Comparing the engines (Differential.hpp).
#include "checker/Differential.hpp"

#include <algorithm>

#include "checker/ExplicitEngine.hpp"
#include "checker/ResultPrinter.hpp"
#include "checker/Suite.hpp"
#include "frontend/Unroller.hpp"

namespace ptxmm::checker {
namespace {

std::string races(const TestResult& r) {
  std::string out;
  for (const auto& race : r.races) out += "{" + raceLine(race) + "} ";
  return out.empty() ? "none" : out;
}

std::string states(const TestResult& r) {
  std::string out;
  for (const auto& s : r.states) out += "{" + stateText(r, s) + "} ";
  return out.empty() ? "none" : out;
}

// A result with nothing left of the order of its threads and events: the states as sorted `key=value` sets,
// the races with their two accesses sorted.
std::string orderFree(const TestResult& r) {
  std::vector<std::string> stateSets, raceSet;
  for (const auto& s : r.states) {
    std::vector<std::string> pairs;
    for (std::size_t k = 0; k < r.keys.size(); ++k) pairs.push_back(r.keys[k] + "=" + std::to_string(s.values[k]));
    std::sort(pairs.begin(), pairs.end());
    std::string text;
    for (const auto& p : pairs) text += p + " ";
    stateSets.push_back("{" + text + "}");
  }
  for (const auto& race : r.races) {
    const std::string swapped = raceLine({race.kind, race.second, race.first, {}, {}, {}});
    raceSet.push_back("{" + std::min(raceLine(race), swapped) + "}");
  }
  std::sort(stateSets.begin(), stateSets.end());
  std::sort(raceSet.begin(), raceSet.end());
  std::string out = statusName(r.status) + (r.holds ? " holds" : " fails") + "; states";
  for (const auto& s : stateSets) out += " " + s;
  out += "; flags";
  for (const auto& f : r.flags) out += " " + f;
  out += "; races";
  for (const auto& race : raceSet) out += " " + race;
  return out;
}

frontend::CondPtr renumbered(const frontend::CondPtr& e, const std::function<int(int)>& newIndex) {
  if (!e) return e;
  auto copy = std::make_shared<frontend::CondExpr>(*e);
  for (auto* v : {&copy->lhs, &copy->rhs})
    if (v->kind == frontend::CondValue::Kind::Register) v->thread = newIndex(v->thread);
  copy->a = renumbered(e->a, newIndex);
  copy->b = renumbered(e->b, newIndex);
  return copy;
}

}  // namespace

void renumberThreads(frontend::Program& program, const std::function<int(int)>& newIndex) {
  for (auto& init : program.regInits) init.thread = newIndex(init.thread);
  for (auto& v : program.observed)
    if (v.kind == frontend::CondValue::Kind::Register) v.thread = newIndex(v.thread);
  program.condition.expr = renumbered(program.condition.expr, newIndex);
}

frontend::Program withThreadsReversed(const frontend::Program& program) {
  frontend::Program out = program;
  const int n = static_cast<int>(out.threads.size());
  std::reverse(out.threads.begin(), out.threads.end());
  for (int t = 0; t < n; ++t) out.threads[static_cast<std::size_t>(t)].index = t;
  renumberThreads(out, [n](int t) { return n - 1 - t; });
  return out;
}

EngineComparison compareEngines(const model::CatModel& model, const frontend::Program& program,
                                const RunOptions& options) {
  const model::EventGraph graph = frontend::unroll(program, {options.unroll});
  EngineOptions limits = options.limits;
  limits.races = true;
  EngineComparison c;
  c.reference = ExplicitEngine(model, limits).run(program, graph);
  Z3Options z3 = options.z3;
  z3.crossCheck = true;
  z3.listStates = true;
  c.z3 = Z3Engine(model, limits, z3).run(program, graph);
  if (c.z3.status == Status::Internal) {
    c.difference = c.z3.reason;
    return c;
  }
  if (c.reference.resourceLimit || c.z3.resourceLimit) {
    c.inconclusive = true;
    c.limit = c.reference.resourceLimit ? "explicit: " + c.reference.reason : "z3: " + c.z3.reason;
    return c;
  }
  if (c.reference.status != c.z3.status)
    c.difference = "status " + statusName(c.reference.status) + " (explicit: " + c.reference.reason + ") vs " +
                   statusName(c.z3.status) + " (z3: " + c.z3.reason + ")";
  else if (states(c.reference) != states(c.z3))
    c.difference = "states differ: explicit " + states(c.reference) + "; z3 " + states(c.z3);
  else if (c.reference.holds != c.z3.holds)
    c.difference = "the condition's claim differs";
  else if (c.reference.flags != c.z3.flags)
    c.difference = "raised flags differ";
  else if (races(c.reference) != races(c.z3))
    c.difference = "races differ: explicit " + races(c.reference) + "; z3 " + races(c.z3);
  if (!c.difference.empty()) return c;
  const frontend::Program reversed = withThreadsReversed(program);
  const TestResult z3Reversed = Z3Engine(model, limits, z3).run(reversed, frontend::unroll(reversed, {options.unroll}));
  if (z3Reversed.resourceLimit) {
    c.inconclusive = true;
    c.limit = "z3 on the threads reversed: " + z3Reversed.reason;
  } else if (orderFree(z3Reversed) != orderFree(c.z3)) {
    c.difference = "thread order changes the result: z3 on the threads reversed gives " + orderFree(z3Reversed) +
                   "; in the written order " + orderFree(c.z3);
  }
  return c;
}

}  // namespace ptxmm::checker
