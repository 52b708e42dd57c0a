// Unroll, check, then explain and draw (TestRunner.hpp).
#include "checker/TestRunner.hpp"

#include <new>

#include "checker/EngineRegistry.hpp"
#include "checker/ExecutionView.hpp"
#include "checker/PathEnumerator.hpp"
#include "checker/ResultPrinter.hpp"
#include "checker/WitnessReplay.hpp"
#include "frontend/lower/Unroller.hpp"

namespace ptxmm::checker {
namespace {

using Paths = std::vector<std::vector<ThreadPath>>;

// An edge to draw in red, by global event ids (each replay numbers events itself).
struct Highlight {
  int from;
  int to;
  std::string label;
};

Paths allPaths(const model::EventGraph& graph) {
  Paths paths;
  for (std::size_t t = 0; t < graph.threads.size(); ++t) paths.push_back(enumeratePaths(graph, static_cast<int>(t)));
  return paths;
}

// The explanation's execution and, for each axiom it violates, the rejected cycle or pair.
void describeExplanation(const model::CatModel& model, const model::EventGraph& graph, const Paths& paths,
                         Explanation& e, std::vector<Highlight>& highlight) {
  const Replay r = replay(model, graph, paths, *e.witness);
  if (!r.execution) {
    e.execution = "(the explicit engine cannot rebuild this execution: " + r.problem + ")";
    return;
  }
  e.execution = describeExecution(*r.execution, graph);
  model::Evaluator ev(model);
  ev.reset(r.execution->candidate());
  for (auto index : r.failingChecks) {
    const Violation v = findViolation(ev, index);
    ViolationText t{v.check, v.expression, v.shape, describeSteps(*r.execution, v.steps, false), {}};
    for (std::size_t k = 0; k < v.steps.size(); ++k)
      t.detail.push_back(describeSteps(*r.execution, {v.steps[k]}, false) + ": " +
                         describeSteps(*r.execution, v.detail[k], true));
    e.violations.push_back(std::move(t));
    for (const auto& step : v.steps)
      highlight.push_back({r.execution->global(step.from), r.execution->global(step.to), step.relation});
  }
}

// UNKNOWN for `program`: a resource bound stopped the check (`reason`).
TestResult limitResult(const frontend::Program& program, const std::string& reason) {
  TestResult r;
  r.name = program.name;
  r.file = program.file;
  r.status = Status::Unknown;
  r.resourceLimit = true;
  r.reason = reason;
  return r;
}

bool usesMbarriers(const frontend::Program& program) {
  for (const auto& t : program.threads)
    for (const auto& in : t.code)
      if (in.op == frontend::Opcode::MbarArrive || in.op == frontend::Opcode::MbarWait ||
          in.op == frontend::Opcode::MbarCompleteTx || in.op == frontend::Opcode::TcCommit ||
          in.op == frontend::Opcode::BulkCopy || in.op == frontend::Opcode::StAsync ||
          in.op == frontend::Opcode::RedAsync || in.op == frontend::Opcode::CpAsyncMbarArrive)
        return true;
  return false;
}

// Draws one execution as DOT, or nothing when the explicit engine cannot rebuild it.
void draw(const model::CatModel& model, const model::EventGraph& graph, const Paths& paths, const Witness& w,
          const std::string& file, const std::string& title, const std::vector<Highlight>& highlight,
          std::vector<Drawing>& out) {
  const Replay r = replay(model, graph, paths, w);
  if (!r.execution) return;
  std::vector<Step> steps;
  for (const auto& h : highlight)
    if (auto a = r.execution->local(h.from), b = r.execution->local(h.to); a && b) steps.push_back({*a, *b, h.label, {}});
  model::Evaluator ev(model);
  ev.reset(r.execution->candidate());
  out.push_back({file, toDot(*r.execution, graph, ev, title, steps)});
}

void drawAll(const model::CatModel& model, const model::EventGraph& graph, const Paths& paths, Show show,
             TestResult& result, const std::vector<Highlight>& forbidden) {
  const std::string stem = fileStem(result.name);
  if (show == Show::Forbidden) {
    if (result.explanation && result.explanation->witness) {
      const char* what = result.explanation->allowed ? "allowed" : "forbidden";
      draw(model, graph, paths, *result.explanation->witness, stem + "-" + what,
           result.name + ": " + what + " " + result.explanation->targetText, forbidden, result.drawings);
    }
    return;
  }
  int n = 0;
  for (const auto& s : result.states)
    if (s.witness && (show == Show::All || s.satisfies))
      draw(model, graph, paths, *s.witness, stem + "-" + std::to_string(n++), result.name + ": " + stateText(result, s),
           {}, result.drawings);
  if (show == Show::All)
    for (std::size_t k = 0; k < result.races.size(); ++k) {
      const Race& race = result.races[k];
      draw(model, graph, paths, race.witness, stem + "-race-" + std::to_string(k), result.name + ": " + race.kind,
           {{race.events.first, race.events.second, "race: " + race.kind}}, result.drawings);
    }
}

}  // namespace

std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options) {
  EngineOptions chosen = options.engineOptions;
  chosen.explain = options.explain;
  return engineNamed(options.engine).make(model, chosen);
}

TestResult checkProgram(const model::CatModel& model, const frontend::Program& program, const RunOptions& given) {
  // One deadline for every stage of this test (issue 16): unrolling, each engine run, liveness, explanations.
  RunOptions options = given;
  options.engineOptions.deadline = engineDeadline(given.engineOptions);
  try {
    const model::EventGraph graph =
        frontend::unroll(program, {options.unroll, options.engineOptions.deadline, options.maxEvents});
    TestResult result = makeEngine(model, options)->run(program, graph);
    if (options.liveness && result.status != Status::Error && result.status != Status::Internal)
      result.liveness = engineNamed(options.engine).liveness(model, graph, {options.progress, options.engineOptions});
    // The engines' hint that no execution ends is superseded by the hangs that say why.
    if (result.liveness && !result.liveness->hangs.empty()) std::erase(result.notes, noExecutionNote());
    if (options.explain && !result.explanation && result.status == Status::Ok) {
      // The explanation search is a sequence of solver queries: an engine without them borrows the solver's.
      EngineOptions query = options.engineOptions;
      query.listStates = false;
      query.explain = true;
      result.explanation = solverEngine().make(model, query)->run(program, graph).explanation;
    }
    // No forbidden outcome to explain: show how a permitted execution reaches the one asked about.
    if (options.explain && !result.explanation && result.status == Status::Ok)
      result.explanation = allowedExplanation(result);
    if (options.otherMbarrierReading && result.status == Status::Ok && usesMbarriers(program)) {
      EngineOptions query = options.engineOptions;
      query.listStates = false;
      query.explain = false;
      const TestResult other = solverEngine().make(*options.otherMbarrierReading, query)->run(program, graph);
      if (other.status == Status::Ok && other.holds != result.holds)
        result.notes.push_back(
            "the verdict depends on a point the PTX text leaves open (spec A6): whether mbarrier operations whose "
            "scopes do not include each other's thread, such as a .cta-scoped arrive from another CTA, still "
            "synchronise (--mbarrier strict, the default for litmus tests: no; --mbarrier lenient: yes). With "
            "--mbarrier " + options.otherMbarrierName + " the condition's claim " +
            (other.holds ? "holds" : "does not hold"));
    }
    if (!options.explain && !options.draw) return result;
    const Paths paths = allPaths(graph);
    std::vector<Highlight> highlight;
    if (result.explanation && result.explanation->witness)
      describeExplanation(model, graph, paths, *result.explanation, highlight);
    if (options.draw) drawAll(model, graph, paths, *options.draw, result, highlight);
    return result;
  } catch (const model::UserError& e) {
    TestResult r = errorResult(program.file, e);
    r.name = program.name;
    return r;
  } catch (const model::LimitReached& e) {
    // A bound reached before any engine answered (--timeout or --max-events while unrolling): nothing is decided.
    return limitResult(program, e.what());
  } catch (const std::bad_alloc&) {
    // The memory bound (ptxmm's --max-memory or the caller's own limit) stopped the check; what it built is freed.
    return limitResult(program, outOfMemoryReason());
  }
}

}  // namespace ptxmm::checker
