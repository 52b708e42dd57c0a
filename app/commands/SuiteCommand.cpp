// `ptxmm suite`: tests against an expectations file (--expected) or nvlitmus tests against their own permit and
// assert lines (--nvlitmus), in parallel; prints every mismatch with its reason, a progress bar on a terminal,
// `N passed, M failed` at the end, and optionally a JSON report of every test.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/ExpectationFiles.hpp"
#include "app/SuiteRunner.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "checker/ResultPrinter.hpp"

namespace ptxmm::app {
namespace {

using checker::Verdict;

// A progress bar on a terminal (rewritten in place), one line per test otherwise (logs, CI).
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), tty_(isatty(STDOUT_FILENO)) {}
  void report(const SuiteEntry& e, std::size_t done, std::size_t failed) {
    const bool bad = e.verdict == Verdict::Fail || e.verdict == Verdict::StaleDifference;
    const char* word = e.verdict == Verdict::Pass ? "PASS" : e.verdict == Verdict::KnownDifference ? "KNOWN"
                       : e.verdict == Verdict::StaleDifference ? "STALE" : "FAIL";
    if (!tty_) {
      std::cout << "[" << done << "/" << total_ << "] " << word << " " << e.expectation.path;
      if (e.verdict != Verdict::Pass) std::cout << ": " << e.explanation;
      std::cout << "\n";
      return;
    }
    if (bad || e.verdict == Verdict::KnownDifference)
      std::cout << "\r\033[K" << word << " " << e.expectation.path << ": " << e.explanation << "\n";
    const std::size_t width = 40, filled = total_ ? width * done / total_ : width;
    std::cout << "\r\033[K[" << std::string(filled, '=') << std::string(width - filled, ' ') << "] " << done << "/"
              << total_ << (failed ? "  " + std::to_string(failed) + " failed" : "") << std::flush;
    if (done == total_) std::cout << "\n";
  }

 private:
  std::size_t total_;
  bool tty_;
};

struct SuiteCommand {
  CommonOptions common;
  std::string expected, nvlitmus, root, exceptions, shard, report;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  ExitCode run() {
    if (expected.empty() == nvlitmus.empty()) throw UsageError("suite needs --expected FILE or --nvlitmus DIR");
    std::optional<model::CatModel> other;
    const auto model = loadModel(common, other);
    SuiteOptions options;
    if (!shard.empty()) {
      const auto slash = shard.find('/');
      try {
        options.shard = std::stoi(shard.substr(0, slash));
        options.shards = std::stoi(shard.substr(slash + 1));
      } catch (const std::exception&) {
        options.shards = 0;
      }
      if (slash == std::string::npos || options.shards < 1 || options.shard < 1 || options.shard > options.shards)
        throw UsageError("--shard expects K/N with 1 <= K <= N, got '" + shard + "'");
    }
    // An nvlitmus directory (or file) carries its expectations in its tests' permit/assert lines.
    const auto expectations = shardOf(nvlitmus.empty() ? readExpectations(expected) : readNvLitmusExpectations(nvlitmus),
                                      options.shard, options.shards);
    if (!nvlitmus.empty())
      root = std::filesystem::is_directory(nvlitmus) ? nvlitmus : std::filesystem::path(nvlitmus).parent_path().string();
    options.root = root.empty() ? std::filesystem::path(expected).parent_path().string() : root;
    options.jobs = jobs;
    options.run = common.run;
    options.graphDir = common.graphDir;
    if (!exceptions.empty()) options.knownDifferences = readKnownDifferences(exceptions);
    std::size_t passed = 0, failed = 0, known = 0;
    Progress progress(expectations.size());
    const auto entries = runSuite(model, expectations, options, [&](const SuiteEntry& e, std::size_t done) {
      if (e.verdict == Verdict::Pass) ++passed;
      else if (e.verdict == Verdict::KnownDifference) ++known;
      else ++failed;
      progress.report(e, done, failed);
    });
    if (!report.empty()) writeReport(entries, options, passed, failed, known);
    std::cout << passed << " passed, " << failed << " failed";
    if (known) std::cout << ", " << known << " known differences (" << exceptions << ")";
    std::cout << std::endl;
    return failed ? ExitCode::ExpectationFailed : ExitCode::Ok;
  }

  void writeReport(const std::vector<SuiteEntry>& entries, const SuiteOptions& options, std::size_t passed,
                   std::size_t failed, std::size_t known) const {
    nlohmann::json j = {{"expectations", nvlitmus.empty() ? expected : nvlitmus}, {"shard", std::to_string(options.shard) + "/" + std::to_string(options.shards)},
                        {"passed", passed}, {"failed", failed}, {"known_differences", known}, {"tests", nlohmann::json::array()}};
    for (const auto& e : entries) {
      const char* verdict = e.verdict == Verdict::Pass ? "pass" : e.verdict == Verdict::KnownDifference ? "known-difference"
                            : e.verdict == Verdict::StaleDifference ? "stale-difference" : "fail";
      j["tests"].push_back({{"path", e.expectation.path}, {"expected_holds", e.expectation.holds}, {"verdict", verdict},
                            {"explanation", e.explanation}, {"result", checker::toJson(e.result)}});
    }
    std::ofstream(report) << j.dump(2) << "\n";
  }
};

}  // namespace

Command addSuiteCommand(CLI::App& app) {
  auto state = std::make_shared<SuiteCommand>();
  auto* cmd = app.add_subcommand(
      "suite", "check tests against an expectations file (path,1|0[,states]) or nvlitmus tests against their own");
  addCommonOptions(*cmd, state->common);
  auto* expectedOpt = cmd->add_option("--expected", state->expected, "expectations file");
  auto* rootOpt =
      cmd->add_option("--root", state->root, "directory the paths are relative to (default: the file's directory)");
  cmd->add_option("--nvlitmus", state->nvlitmus,
                  "instead of --expected: a directory of NVIDIA nvlitmus .test files (or one file); every table "
                  "row is a test named FILE#ROW whose permit/assert line is the expectation")
      ->excludes(expectedOpt)
      ->excludes(rootOpt);
  cmd->add_option("--exceptions", state->exceptions, "known differences, one 'path reason' per line");
  cmd->add_option("-j,--jobs", state->jobs, "tests checked in parallel")->check(CLI::PositiveNumber);
  cmd->add_option("--shard", state->shard, "run only shard K of N (K/N, 1 <= K <= N), e.g. for Slurm job arrays");
  cmd->add_option("--report", state->report, "write a JSON report of every test to this file");
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
