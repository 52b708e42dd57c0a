// The suite runner: checks many tests against their expectations (ExpectationFiles.hpp) on a pool of threads
// and reports each as it finishes; every mismatch comes with its reason (checker/Expectation.hpp). A test that
// overruns --timeout in a stage the engines cannot stop is reported UNKNOWN on time (DeadlinePool.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "checker/Expectation.hpp"
#include "checker/TestRunner.hpp"

namespace ptxmm::app {

struct SuiteEntry {
  checker::Expectation expectation;
  checker::TestResult result;
  checker::Verdict verdict = checker::Verdict::Pass;
  std::string explanation;  // why it failed, or the known difference's reason
};

struct SuiteOptions {
  std::string root;  // directory the expectation paths are relative to
  int jobs = 1;
  int shard = 1;     // run the tests whose index i (0-based, in file order) has i % shards == shard - 1
  int shards = 1;
  checker::RunOptions run;
  std::string graphDir;  // --graph: where drawn executions go; empty: none
  std::vector<checker::KnownDifference> knownDifferences;
};

/// The expectations of this shard.
std::vector<checker::Expectation> shardOf(const std::vector<checker::Expectation>& all, int shard, int shards);

struct SuiteRun {
  std::vector<SuiteEntry> entries;
  /// A test overran --timeout by kWatchdogGraceSeconds and was reported UNKNOWN while its thread still runs: the
  /// caller must end the process with std::_Exit once it has reported (see DeadlinePool.hpp).
  bool abandoned = false;
};

/// Runs every expectation (in parallel with `jobs` threads, each test under the --timeout backstop); `onDone` is
/// called (serialised) as each finishes or is given up.
SuiteRun runSuite(const model::CatModel& model, const std::vector<checker::Expectation>& expectations,
                                 const SuiteOptions& options,
                                 const std::function<void(const SuiteEntry&, std::size_t done)>& onDone);

}  // namespace ptxmm::app
