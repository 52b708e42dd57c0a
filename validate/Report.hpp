// The result of validating one test on hardware, as a value: the model's permitted states, the observed
// histogram, their comparison (observed and allowed, allowed but unseen, observed but forbidden), the sibling
// run, the SASS check, the environment, and the verdict. Rendered litmus7-style (Histogram, `*>` on states
// satisfying the condition, Witnesses, Condition ... is validated, Observation, Time) or as JSON; a stored JSON
// report can be re-compared with the current model without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/Program.hpp"
#include "validate/HardwareRun.hpp"

namespace ptxmm::validate {

using Values = std::vector<std::int64_t>;

/// What the comparison needs from the model's result for the test.
struct ModelView {
  std::vector<std::string> keys;
  std::vector<Values> allowed;  // the permitted states
  bool complete = false;        // the engine finished: states outside `allowed` are forbidden
  std::string status;           // "ok", or why the list may be incomplete
  frontend::Condition::Quantifier quantifier = frontend::Condition::Quantifier::Exists;
  std::string conditionText;
};

struct Outcome {
  Values values;
  std::uint64_t count = 0;
  bool allowed = false;
  bool satisfies = false;  // the condition's proposition holds in it
  double rate = 0;         // per second
  double reproducibility = 0;
};

struct Comparison {
  std::vector<Outcome> histogram;  // sorted by values
  std::vector<Values> allowedUnseen;
  std::uint64_t classified = 0;
  std::uint64_t positive = 0;  // instances whose outcome satisfies the proposition
  std::uint64_t negative = 0;
  std::uint64_t forbiddenInstances = 0;
  std::size_t forbiddenStates = 0;
  bool validated = false;      // litmus7's verdict on the condition over the observed states
};

/// Compares an observed histogram with the model.
Comparison compare(const ModelView& model, const std::vector<std::pair<Values, std::uint64_t>>& histogram, double seconds,
                   const std::function<bool(const Values&)>& satisfies);

/// Where a test ended up.
enum class Verdict : std::uint8_t {
  Consistent,         // every observed outcome is allowed (and the sibling, if required, was seen)
  ForbiddenObserved,  // an outcome the model forbids was observed
  Inconclusive,       // nothing forbidden seen, but the sibling was not seen or the model is incomplete
  CompiledOnly,       // --compile-only: generated, compiled and SASS-checked
  Refused,            // unsupported on hardware, or the SASS check failed
  Error,              // bad input, or a failure of the tools or the run (TestReport::internalError)
};

struct SiblingReport {
  std::string name;
  std::string origin;  // "weakened: ..." or "--sibling FILE"
  bool seen = false;   // its weak outcome (a state satisfying the target) was observed
  std::uint64_t targetCount = 0;
  std::uint64_t instances = 0;
  double seconds = 0;
  std::string problem;  // why it could not be run or found
};

struct TestReport {
  std::string name;
  std::string file;
  Verdict verdict = Verdict::Error;
  bool internalError = true;        // an Error of the tools or the harness (a bug), not of the input or the machine
  std::string reason;               // for Refused, Error, Inconclusive
  ModelView model;
  std::optional<HardwareRun> run;
  std::optional<Comparison> comparison;
  std::string nvccVersion;
  std::string sassHash;
  int sassAnchors = 0;
  std::vector<std::string> sassNotes;
  std::string workDir;
  bool siblingRequired = false;     // the model forbids the condition's target: a sibling must show the harness's power
  std::optional<SiblingReport> sibling;
  std::string replay;               // the command that reruns the same seed and parameters
};

/// litmus7-style text.
std::string toText(const TestReport& r);

/// The JSON object of one test (the format of cases/hw/*.json), with the exit code the command gave it.
nlohmann::json toJson(const TestReport& r, int exitCode);

/// "P1:r0=1; x=2;" the litmus7 rendering of a state.
std::string stateText(const std::vector<std::string>& keys, const Values& values);

/// "exists", "~exists" or "forall".
std::string quantifierWord(frontend::Condition::Quantifier q);

}  // namespace ptxmm::validate
