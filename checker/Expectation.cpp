// Comparing a result with its expectation (Expectation.hpp).
#include "checker/Expectation.hpp"

#include <algorithm>

#include "checker/ResultPrinter.hpp"

namespace ptxmm::checker {
namespace {

std::vector<std::string> sortedStates(const std::vector<std::string>& s) {
  std::vector<std::string> out = s;
  std::sort(out.begin(), out.end());
  return out;
}

// Why a result does not meet its expectation; empty when it does.
std::string livenessMismatch(const Expectation& e, const TestResult& r) {
  const auto& l = r.liveness;
  if (!l) return e.terminates ? "liveness was not checked" : "";
  if (!l->terminates) {
    if (e.terminates == false) return "";
    return "a hang" + std::string(e.terminates ? "" : " the expectation does not mention") + " (progress model " +
           l->model + "): " + hangLine(l->hangs.front(), l->model);
  }
  if (!l->decided) return e.terminates ? "liveness UNKNOWN: " + l->reason : "";
  if (e.terminates == false) return "every execution terminates (progress model " + l->model + "), expected a hang";
  return "";
}

std::string mismatch(const Expectation& e, const TestResult& r) {
  if (r.status == Status::Error) return r.reason;
  if (e.livenessOnly) return livenessMismatch(e, r);
  if (r.status == Status::Unknown) return "UNKNOWN: " + r.reason;
  if (auto why = livenessMismatch(e, r); !why.empty()) return why;
  if (r.holds != e.holds)
    return "the condition's claim " + std::string(r.holds ? "holds" : "does not hold") + " (" +
           quantifierName(r.quantifier) + "), expected " + (e.holds ? "to hold" : "not to hold");
  if (e.racy && r.racesChecked && *e.racy != !r.races.empty())
    return std::string(r.races.empty() ? "race-free" : "racy (" + raceLine(r.races.front()) + ")") + ", expected " +
           (*e.racy ? "a race" : "race-free");
  if (!e.states) return "";
  std::vector<std::string> got;
  for (const auto& s : r.states) got.push_back(stateText(r, s));
  const auto want = sortedStates(*e.states);
  got = sortedStates(got);
  if (got == want) return "";
  std::string msg = "permitted states differ:";
  for (const auto& s : want)
    if (!std::binary_search(got.begin(), got.end(), s)) msg += " missing {" + s + "}";
  for (const auto& s : got)
    if (!std::binary_search(want.begin(), want.end(), s)) msg += " unexpected {" + s + "}";
  return msg;
}

}  // namespace

Judgement judge(const Expectation& expectation, const TestResult& result,
                const std::vector<KnownDifference>& knownDifferences) {
  const std::string why = mismatch(expectation, result);
  const auto known = std::find_if(knownDifferences.begin(), knownDifferences.end(),
                                  [&](const KnownDifference& k) { return k.path == expectation.path; });
  if (known != knownDifferences.end() && result.status == Status::Ok)
    return why.empty() ? Judgement{Verdict::StaleDifference, "listed as a known difference but agrees now: " + known->reason}
                       : Judgement{Verdict::KnownDifference, known->reason + " (" + why + ")"};
  if (result.status == Status::Unknown) return {Verdict::Unknown, why};
  if (why.empty() && result.noExecution)
    return {Verdict::Pass, "vacuous: no candidate execution is consistent with the model"};
  return {why.empty() ? Verdict::Pass : Verdict::Fail, why};
}

}  // namespace ptxmm::checker
