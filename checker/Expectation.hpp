// What a suite expects of one test, and whether a result meets it: the condition's claim, optionally the exact
// set of permitted states, whether some permitted execution races and whether every execution terminates. A hang
// the expectation does not mention fails the test (issue 13: a hang is never a pass); `suite --liveness` judges
// only liveness (Dat3M's liveness expectations: 1 = every execution terminates under the progress model).
// A known difference (a test where ptxmm's
// reading of the spec knowingly differs from a peer's expectation) is reported, never silenced, and one that no
// longer differs is reported too. Reading expectation files is app/ExpectationFiles.hpp's.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/Outcome.hpp"

namespace ptxmm::checker {

struct Expectation {
  std::string path;  // as written in the file
  bool holds = false;
  std::optional<std::vector<std::string>> states;  // canonical state strings (stateText), when pinned
  std::optional<bool> racy;                        // whether a race exists, when pinned
  model::SourcePos pos;
  std::shared_ptr<const frontend::Program> program;  // an nvlitmus row test: checked instead of the file at path
  std::optional<bool> terminates = std::nullopt;     // whether every execution terminates, when pinned
  bool livenessOnly = false;                         // `suite --liveness`: only `terminates` is judged
};

struct KnownDifference {
  std::string path;
  std::string reason;
};

/// Unknown: the engine stopped (a limit, an unsupported construct) before deciding; neither a pass nor a failure.
enum class Verdict : std::uint8_t { Pass, Fail, KnownDifference, StaleDifference, Unknown };

struct Judgement {
  Verdict verdict = Verdict::Pass;
  std::string explanation;  // why it failed, the known difference's reason, or why a pass is vacuous
};

/// Whether `result` meets `expectation`, given the known differences.
Judgement judge(const Expectation& expectation, const TestResult& result,
                const std::vector<KnownDifference>& knownDifferences);

}  // namespace ptxmm::checker
