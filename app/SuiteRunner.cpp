// The parallel suite loop (SuiteRunner.hpp).
#include "app/SuiteRunner.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <system_error>
#include <thread>

#include "app/TestFiles.hpp"

namespace ptxmm::app {

std::vector<checker::Expectation> shardOf(const std::vector<checker::Expectation>& all, int shard, int shards) {
  std::vector<checker::Expectation> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shards)) == shard - 1) out.push_back(all[i]);
  return out;
}

std::vector<SuiteEntry> runSuite(const model::CatModel& model, const std::vector<checker::Expectation>& expectations,
                                 const SuiteOptions& options,
                                 const std::function<void(const SuiteEntry&, std::size_t)>& onDone) {
  std::vector<SuiteEntry> entries(expectations.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex report;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < expectations.size();) {
      SuiteEntry& entry = entries[i];
      entry.expectation = expectations[i];
      const std::string path = options.root.empty() ? entry.expectation.path : options.root + "/" + entry.expectation.path;
      checker::RunOptions run = options.run;
      run.engineOptions.listStates = entry.expectation.states.has_value();  // otherwise one query decides the claim
      run.engineOptions.races = entry.expectation.racy.has_value();
      entry.result = entry.expectation.program ? checkProgram(model, *entry.expectation.program, run, options.graphDir)
                                               : checkFile(model, path, run, options.graphDir);
      const checker::Judgement j = checker::judge(entry.expectation, entry.result, options.knownDifferences);
      entry.verdict = j.verdict;
      entry.explanation = j.explanation;
      std::lock_guard lock(report);
      onDone(entry, ++done);
    }
  };
  std::vector<std::thread> pool;
  // Fewer workers when the system refuses more threads (a process or memory limit): the suite still runs, on
  // the threads it got and this one (issue 16 C4).
  for (int j = 1; j < std::max(1, options.jobs); ++j) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;
    }
  }
  worker();
  for (auto& t : pool) t.join();
  return entries;
}

}  // namespace ptxmm::app
