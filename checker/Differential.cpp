// Comparing the engines (Differential.hpp).
#include "checker/Differential.hpp"

#include "frontend/ConditionWalk.hpp"

#include <algorithm>
#include <new>

#include "checker/EngineRegistry.hpp"
#include "checker/ResultPrinter.hpp"
#include "frontend/lower/Unroller.hpp"

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
  auto copy = [&](const frontend::CondExpr& node) {
    auto out = std::make_shared<frontend::CondExpr>(node);
    for (auto* v : {&out->lhs, &out->rhs})
      if (v->kind == frontend::CondValue::Kind::Register) v->thread = newIndex(v->thread);
    return out;
  };
  return frontend::foldCondition<frontend::CondPtr>(
      *e, [&](const frontend::CondExpr& leaf) -> frontend::CondPtr { return copy(leaf); },
      [&](const frontend::CondExpr& node, frontend::CondPtr* args) -> frontend::CondPtr {
        auto out = copy(node);
        out->a = std::move(args[0]);
        if (node.b) out->b = std::move(args[1]);
        return out;
      });
}

}  // namespace

void renumberThreads(frontend::Program& program, const std::function<int(int)>& newIndex) {
  for (auto& init : program.regInits) init.thread = newIndex(init.thread);
  for (auto& v : program.observed)
    if (v.kind == frontend::CondValue::Kind::Register) v.thread = newIndex(v.thread);
  program.condition.expr = renumbered(program.condition.expr, newIndex);
  if (program.filter) program.filter = renumbered(program.filter, newIndex);
}

frontend::Program withThreadsReversed(const frontend::Program& program) {
  frontend::Program out = program;
  const int n = static_cast<int>(out.threads.size());
  std::reverse(out.threads.begin(), out.threads.end());
  for (int t = 0; t < n; ++t) out.threads[static_cast<std::size_t>(t)].index = t;
  renumberThreads(out, [n](int t) { return n - 1 - t; });
  return out;
}

namespace {

EngineComparison inconclusive(const std::string& limit) {
  EngineComparison c;
  c.inconclusive = true;
  c.limit = limit;
  return c;
}

// compareEngines, within one deadline for every stage (--timeout); throws model::LimitReached past it.
EngineComparison compare(const model::CatModel& model, const frontend::Program& program, const RunOptions& options) {
  EngineOptions limits = options.engineOptions;
  limits.deadline = engineDeadline(options.engineOptions);
  const frontend::UnrollOptions unrolling{options.unroll, limits.deadline, options.maxEvents};
  const model::EventGraph graph = frontend::unroll(program, unrolling);
  limits.races = true;
  const EngineInfo& reference = referenceEngine();
  const EngineInfo& solver = solverEngine();
  const std::string ref = reference.name, other = solver.name;
  EngineComparison c;
  c.reference = reference.make(model, limits)->run(program, graph);
  EngineOptions checked = limits;
  checked.crossCheck = true;
  checked.listStates = true;
  c.solver = solver.make(model, checked)->run(program, graph);
  if (c.solver.status == Status::Internal) {
    c.difference = c.solver.reason;
    return c;
  }
  if (c.reference.resourceLimit || c.solver.resourceLimit) {
    c.inconclusive = true;
    c.limit = c.reference.resourceLimit ? ref + ": " + c.reference.reason : other + ": " + c.solver.reason;
    return c;
  }
  if (c.reference.status != c.solver.status)
    c.difference = "status " + statusName(c.reference.status) + " (" + ref + ": " + c.reference.reason + ") vs " +
                   statusName(c.solver.status) + " (" + other + ": " + c.solver.reason + ")";
  else if (states(c.reference) != states(c.solver))
    c.difference = "states differ: " + ref + " " + states(c.reference) + "; " + other + " " + states(c.solver);
  else if (c.reference.holds != c.solver.holds)
    c.difference = "the condition's claim differs";
  else if (c.reference.flags != c.solver.flags)
    c.difference = "raised flags differ";
  else if (races(c.reference) != races(c.solver))
    c.difference = "races differ: " + ref + " " + races(c.reference) + "; " + other + " " + races(c.solver);
  if (!c.difference.empty()) return c;
  // Liveness, each engine deciding it on its own (issue 13).
  if (options.liveness) {
    const liveness::LivenessOptions live{options.progress, limits};
    const auto a = reference.liveness(model, graph, live), b = solver.liveness(model, graph, live);
    auto verdict = [](const liveness::LivenessResult& l) {
      return !l.terminates ? std::string("hangs") : l.decided ? std::string("terminates") : "unknown (" + l.reason + ")";
    };
    if (a.resourceLimit || b.resourceLimit) {
      c.inconclusive = true;
      c.limit = "liveness: " + (a.resourceLimit ? ref + ": " + a.reason : other + ": " + b.reason);
      return c;
    }
    if (a.terminates != b.terminates || a.decided != b.decided) {
      c.difference = "liveness differs: " + ref + " " + verdict(a) + "; " + other + " " + verdict(b);
      return c;
    }
  }
  const frontend::Program reversed = withThreadsReversed(program);
  const TestResult solverReversed =
      solver.make(model, checked)->run(reversed, frontend::unroll(reversed, unrolling));
  if (solverReversed.resourceLimit) {
    c.inconclusive = true;
    c.limit = other + " on the threads reversed: " + solverReversed.reason;
  } else if (orderFree(solverReversed) != orderFree(c.solver)) {
    c.difference = "thread order changes the result: " + other + " on the threads reversed gives " +
                   orderFree(solverReversed) + "; in the written order " + orderFree(c.solver);
  }
  return c;
}

}  // namespace

EngineComparison compareEngines(const model::CatModel& model, const frontend::Program& program,
                                const RunOptions& options) {
  try {
    return compare(model, program, options);
  } catch (const model::LimitReached& e) {  // --timeout or --max-events while unrolling or encoding
    return inconclusive(e.what());
  } catch (const std::bad_alloc&) {
    return inconclusive(outOfMemoryReason());
  }
}

}  // namespace ptxmm::checker
