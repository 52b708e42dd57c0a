// A test file from disk to TestResults (a litmus file holds one test, an nvlitmus `.test` file one per table
// row): parse, unroll, run the chosen engine, then what the user asked to see (explanations of forbidden
// outcomes, witness graphs). User errors become a result with status Error whose reason is the
// `file:line:col: error:` diagnostic, so batch commands go on with the next file and still exit 2.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "checker/Engine.hpp"
#include "checker/z3/Z3Engine.hpp"

namespace ptxmm::checker {

/// Which executions get a graph: the condition's positive witnesses, one per permitted state (and race
/// witnesses), or the candidate execution of the explanation of a forbidden outcome.
enum class Show : std::uint8_t { Witness, All, Forbidden };

struct RunOptions {
  int unroll = 2;
  std::size_t maxEvents = 0;  // 0: no limit; more events in the unrolled test give UNKNOWN
  std::string engine = "z3";
  EngineOptions limits;
  Z3Options z3;
  bool explain = false;
  // Reading A6 (spec §8): when set, a test with mbarrier operations is also decided under this other reading
  // of mbarrier scopes, and a note says when the verdict depends on it.
  const model::CatModel* otherMbarrierReading = nullptr;
  std::string otherMbarrierName;
  std::string graphDir;  // write DOT (and SVG when Graphviz is installed) files here; empty: none
  Show show = Show::Witness;
};

/// The engine named by `options.engine` over `model` (the CLI validates the name against engineNames()).
std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options);

/// Checks one parsed test.
TestResult checkProgram(const model::CatModel& model, const frontend::Program& program, const RunOptions& options);

/// Checks a file holding one test: a litmus file, or an nvlitmus `.test` file without a table (one with several
/// tests gives an Error result; see checkTests).
TestResult checkFile(const model::CatModel& model, const std::string& path, const RunOptions& options);

/// Checks every test of a file: one for a litmus file, one per table row for an nvlitmus `.test` file. A file
/// that cannot be read or parsed gives one Error result.
std::vector<TestResult> checkTests(const model::CatModel& model, const std::string& path, const RunOptions& options);

/// The tests of a file: one for a litmus file, one per table row for an nvlitmus `.test` file. Throws
/// model::UserError.
std::vector<frontend::Program> readTests(const std::string& path);

/// The engines `makeEngine` knows.
const std::vector<std::string>& engineNames();

}  // namespace ptxmm::checker
