// One parsed test to a TestResult: unroll, run the chosen engine, then what the user asked to see (explanations
// of forbidden outcomes or an execution reaching an allowed one, executions drawn as DOT). User errors become a result with status Error whose reason is
// the `file:line:col: error:` diagnostic, so batch commands go on with the next test and still exit 2. Reading
// test files and writing the drawings are the caller's (app/).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "checker/Engine.hpp"
#include "checker/liveness/ProgressModel.hpp"

namespace ptxmm::checker {

/// Which executions get drawn: the condition's positive witnesses, one per permitted state (and race
/// witnesses), or the execution of --explain (the candidate of a forbidden outcome, or one reaching an allowed one).
enum class Show : std::uint8_t { Witness, All, Forbidden };

struct RunOptions {
  int unroll = 2;
  std::size_t maxEvents = 0;  // 0: no limit; more events in the unrolled test give UNKNOWN
  std::string engine;         // a name from engineNames() (EngineRegistry.hpp); empty: the default engine
  EngineOptions engineOptions;
  bool explain = false;
  // Reading A6 (spec §8): when set, a test with mbarrier operations is also decided under this other reading
  // of mbarrier scopes, and a note says when the verdict depends on it.
  const model::CatModel* otherMbarrierReading = nullptr;
  std::string otherMbarrierName;
  std::optional<Show> draw;  // draw these executions into TestResult::drawings; none: draw nothing
  bool liveness = true;      // also decide whether every execution terminates (TestResult::liveness)
  liveness::ProgressModel progress;  // the progress model liveness assumes
};

/// The engine `options.engine` names, set up as `options` ask (its engine options, --explain).
std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options);

/// Checks one parsed test.
TestResult checkProgram(const model::CatModel& model, const frontend::Program& program, const RunOptions& options);

}  // namespace ptxmm::checker
