// Comparing the engines (Differential.hpp).
#include "checker/Differential.hpp"

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

}  // namespace

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
  return c;
}

}  // namespace ptxmm::checker
