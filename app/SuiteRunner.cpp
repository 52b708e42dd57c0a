// The parallel suite loop (SuiteRunner.hpp).
#include "app/SuiteRunner.hpp"

#include <filesystem>

#include "app/DeadlinePool.hpp"
#include "app/TestFiles.hpp"
#include "app/Watchdog.hpp"

namespace ptxmm::app {

std::vector<checker::Expectation> shardOf(const std::vector<checker::Expectation>& all, int shard, int shards) {
  std::vector<checker::Expectation> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shards)) == shard - 1) out.push_back(all[i]);
  return out;
}

SuiteRun runSuite(const model::CatModel& model, const std::vector<checker::Expectation>& expectations,
                  const SuiteOptions& options, const std::function<void(const SuiteEntry&, std::size_t)>& onDone) {
  SuiteRun run;
  run.entries.resize(expectations.size());
  std::size_t done = 0;
  auto judged = [&](SuiteEntry entry, std::size_t i) {
    const checker::Judgement j = checker::judge(entry.expectation, entry.result, options.knownDifferences);
    entry.verdict = j.verdict;
    entry.explanation = j.explanation;
    run.entries[i] = std::move(entry);
    onDone(run.entries[i], ++done);
  };
  auto work = [&](std::size_t i) -> JobCommit {
    SuiteEntry entry;
    entry.expectation = expectations[i];
    const std::string path = options.root.empty() ? entry.expectation.path : options.root + "/" + entry.expectation.path;
    checker::RunOptions check = options.run;
    check.engineOptions.listStates = entry.expectation.states.has_value();  // otherwise one query decides the claim
    check.engineOptions.races = entry.expectation.racy.has_value();
    entry.result = entry.expectation.program ? checkProgram(model, *entry.expectation.program, check, options.graphDir)
                                             : checkFile(model, path, check, options.graphDir);
    return [&judged, entry = std::move(entry), i] { judged(entry, i); };
  };
  const double timeout = options.run.engineOptions.timeoutSeconds;
  auto overrun = [&](std::size_t i) {
    SuiteEntry entry;
    entry.expectation = expectations[i];
    entry.result.name = std::filesystem::path(entry.expectation.path).stem().string();
    entry.result.file = entry.expectation.path;
    entry.result.status = checker::Status::Unknown;
    entry.result.resourceLimit = true;
    entry.result.reason = checker::timeoutReason(timeout) +
                          " (unrolling, encoding or freeing the test overran it; the suite went on without it)";
    judged(std::move(entry), i);
  };
  run.abandoned = runWithDeadlines(expectations.size(), options.jobs, timeout > 0 ? timeout + kWatchdogGraceSeconds : 0,
                                   work, overrun);
  return run;
}

}  // namespace ptxmm::app
