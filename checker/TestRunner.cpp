// Parse (litmus or nvlitmus, by extension), unroll, check, then explain and draw (TestRunner.hpp).
#include "checker/TestRunner.hpp"

#include <cassert>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "checker/ExecutionView.hpp"
#include "checker/ExplicitEngine.hpp"
#include "checker/GraphAlgorithms.hpp"
#include "checker/Suite.hpp"
#include "checker/WitnessReplay.hpp"
#include "frontend/Unroller.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

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
  model::Evaluator ev(model, maximalCliques);
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

std::string fileStem(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '+' ? c : '_';
  return out;
}

// Writes one execution as DOT (and SVG when `dot` is available); returns the file written.
std::string writeGraph(const model::CatModel& model, const model::EventGraph& graph, const Paths& paths,
                       const Witness& w, const std::string& dir, const std::string& file, const std::string& title,
                       const std::vector<Highlight>& highlight) {
  const Replay r = replay(model, graph, paths, w);
  if (!r.execution) return "";
  std::vector<Step> steps;
  for (const auto& h : highlight)
    if (auto a = r.execution->local(h.from), b = r.execution->local(h.to); a && b) steps.push_back({*a, *b, h.label, {}});
  model::Evaluator ev(model, maximalCliques);
  ev.reset(r.execution->candidate());
  std::filesystem::create_directories(dir);
  const std::string dot = dir + "/" + file + ".dot";
  std::ofstream(dot) << toDot(*r.execution, graph, ev, title, steps);
  if (std::system("command -v dot >/dev/null 2>&1") == 0)
    if (std::system(("dot -Tsvg '" + dot + "' -o '" + dir + "/" + file + ".svg'").c_str()) == 0) return dir + "/" + file + ".svg";
  return dot;
}

void writeGraphs(const model::CatModel& model, const model::EventGraph& graph, const Paths& paths,
                 const RunOptions& options, TestResult& result, const std::vector<Highlight>& forbidden) {
  std::vector<std::string> written;
  const std::string stem = fileStem(result.name);
  if (options.show == Show::Forbidden) {
    if (result.explanation && result.explanation->witness)
      written.push_back(writeGraph(model, graph, paths, *result.explanation->witness, options.graphDir,
                                   stem + "-forbidden", result.name + ": forbidden " + result.explanation->targetText,
                                   forbidden));
  } else {
    int n = 0;
    for (const auto& s : result.states)
      if (s.witness && (options.show == Show::All || s.satisfies))
        written.push_back(writeGraph(model, graph, paths, *s.witness, options.graphDir,
                                     stem + "-" + std::to_string(n++), result.name + ": " + stateText(result, s), {}));
    if (options.show == Show::All)
      for (std::size_t k = 0; k < result.races.size(); ++k) {
        const Race& race = result.races[k];
        written.push_back(writeGraph(model, graph, paths, race.witness, options.graphDir, stem + "-race-" + std::to_string(k),
                                     result.name + ": " + race.kind,
                                     {{race.events.first, race.events.second, "race: " + race.kind}}));
      }
  }
  for (const auto& f : written)
    if (!f.empty()) result.notes.push_back("graph: " + f);
}

// The tests of a file, read by the reader its extension names: `.test` is NVIDIA's nvlitmus format (one test
// per table row), anything else a litmus test.

TestResult errorResult(const std::string& file, const model::UserError& e) {
  TestResult r;
  r.file = file;
  r.status = Status::Error;
  r.reason = e.what();
  return r;
}

}  // namespace

const std::vector<std::string>& engineNames() {
  static const std::vector<std::string> names{"z3", "explicit"};
  return names;
}

std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options) {
  if (options.engine == "z3") {
    Z3Options z3 = options.z3;
    z3.explain = options.explain;
    return std::make_unique<Z3Engine>(model, options.limits, z3);
  }
  assert(options.engine == "explicit");
  return std::make_unique<ExplicitEngine>(model, options.limits);
}

TestResult checkProgram(const model::CatModel& model, const frontend::Program& program, const RunOptions& options) {
  try {
    const model::EventGraph graph = frontend::unroll(program, {options.unroll});
    if (options.maxEvents && graph.events.size() > options.maxEvents) {
      TestResult r;
      r.name = program.name;
      r.file = program.file;
      r.status = Status::Unknown;
      r.resourceLimit = true;
      r.reason = "the unrolled test has " + std::to_string(graph.events.size()) + " events, more than --max-events " +
                 std::to_string(options.maxEvents);
      return r;
    }
    TestResult result = makeEngine(model, options)->run(program, graph);
    if (options.explain && !result.explanation && result.status == Status::Ok) {
      // The explanation search is a sequence of solver queries: the explicit engine borrows the Z3 one.
      Z3Options z3 = options.z3;
      z3.listStates = false;
      z3.explain = true;
      result.explanation = Z3Engine(model, options.limits, z3).run(program, graph).explanation;
    }
    if (options.otherMbarrierReading && result.status == Status::Ok && usesMbarriers(program)) {
      Z3Options z3 = options.z3;
      z3.listStates = false;
      const TestResult other = Z3Engine(*options.otherMbarrierReading, options.limits, z3).run(program, graph);
      if (other.status == Status::Ok && other.holds != result.holds)
        result.notes.push_back("the verdict depends on reading A6 (mbarrier scopes): under the " +
                               options.otherMbarrierName + " reading the condition's claim " +
                               (other.holds ? "holds" : "does not hold"));
    }
    if (!options.explain && options.graphDir.empty()) return result;
    const Paths paths = allPaths(graph);
    std::vector<Highlight> highlight;
    if (result.explanation && result.explanation->witness)
      describeExplanation(model, graph, paths, *result.explanation, highlight);
    if (!options.graphDir.empty()) writeGraphs(model, graph, paths, options, result, highlight);
    return result;
  } catch (const model::UserError& e) {
    TestResult r = errorResult(program.file, e);
    r.name = program.name;
    return r;
  }
}

TestResult checkFile(const model::CatModel& model, const std::string& path, const RunOptions& options) {
  try {
    const std::vector<frontend::Program> programs = readTests(path);
    if (programs.size() != 1)
      throw model::UserError({path, 0, 0}, "the file holds " + std::to_string(programs.size()) +
                                               " tests (one per table row): `ptxmm run` checks each, `ptxmm suite "
                                               "--nvlitmus` compares them with their expectations");
    return checkProgram(model, programs.front(), options);
  } catch (const model::UserError& e) {
    return errorResult(path, e);
  }
}

std::vector<frontend::Program> readTests(const std::string& path) {
  if (std::filesystem::path(path).extension() != ".test") return {frontend::parseLitmusFile(path)};
  std::vector<frontend::Program> programs;
  for (auto& test : frontend::parseNvLitmusFile(path)) programs.push_back(std::move(test.program));
  return programs;
}

std::vector<TestResult> checkTests(const model::CatModel& model, const std::string& path, const RunOptions& options) {
  std::vector<frontend::Program> programs;
  try {
    programs = readTests(path);
  } catch (const model::UserError& e) {
    return {errorResult(path, e)};
  }
  std::vector<TestResult> results;
  for (const auto& program : programs) results.push_back(checkProgram(model, program, options));
  return results;
}

}  // namespace ptxmm::checker
