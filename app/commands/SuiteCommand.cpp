// `ptxmm suite`: tests against an expectations file (--expected) or nvlitmus tests against their own permit and
// assert lines (--nvlitmus), in parallel; prints every mismatch with its reason, a progress bar on a terminal,
// `N passed, M failed` at the end, and optionally a JSON report of every test.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/ExpectationFiles.hpp"
#include "app/OutputFiles.hpp"
#include "app/SuiteRunner.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "checker/ResultPrinter.hpp"

namespace ptxmm::app {
namespace {

using checker::Verdict;

// How a verdict is named on the progress lines and in the report.
struct VerdictNames {
  const char* word;
  const char* report;
};

VerdictNames namesOf(Verdict v) {
  switch (v) {
    case Verdict::Pass: return {"PASS", "pass"};
    case Verdict::Fail: return {"FAIL", "fail"};
    case Verdict::KnownDifference: return {"KNOWN", "known-difference"};
    case Verdict::StaleDifference: return {"STALE", "stale-difference"};
    case Verdict::Unknown: return {"UNKNOWN", "unknown"};
  }
  return {"FAIL", "fail"};
}

// A progress bar on a terminal (rewritten in place), one line per test otherwise (logs, CI).
class Progress {
 public:
  explicit Progress(std::size_t total) : total_(total), tty_(isatty(STDOUT_FILENO)) {}
  void report(const SuiteEntry& e, std::size_t done, std::size_t failed) {
    const bool bad = e.verdict == Verdict::Fail || e.verdict == Verdict::StaleDifference;
    const char* word = namesOf(e.verdict).word;
    if (!tty_) {
      std::cout << "[" << done << "/" << total_ << "] " << word << " " << e.expectation.path;
      if (!e.explanation.empty()) std::cout << ": " << e.explanation;
      std::cout << "\n";
      return;
    }
    if (bad || !e.explanation.empty())
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
  bool liveness = false;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  ExitCode run() {
    if (expected.empty() == nvlitmus.empty()) throw UsageError("suite needs --expected FILE or --nvlitmus DIR");
    if (!report.empty()) checkReportPath();
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
    auto expectations = shardOf(nvlitmus.empty() ? readExpectations(expected) : readNvLitmusExpectations(nvlitmus),
                                options.shard, options.shards);
    // Dat3M's liveness expectations: the second column says whether every execution terminates.
    if (liveness) {
      if (!common.run.liveness) throw UsageError("suite --liveness needs the liveness check (drop --no-liveness)");
      for (auto& e : expectations) {
        e.terminates = e.holds;
        e.livenessOnly = true;
      }
    }
    if (!nvlitmus.empty())
      root = std::filesystem::is_directory(nvlitmus) ? nvlitmus : std::filesystem::path(nvlitmus).parent_path().string();
    options.root = root.empty() ? std::filesystem::path(expected).parent_path().string() : root;
    options.jobs = jobs;
    options.run = common.run;
    options.graphDir = common.graphDir;
    if (!exceptions.empty()) options.knownDifferences = readKnownDifferences(exceptions);
    Counts n;
    Progress progress(expectations.size());
    const auto suite = runSuite(model, expectations, options, [&](const SuiteEntry& e, std::size_t done) {
      if (e.verdict == Verdict::Pass) ++(e.explanation.empty() ? n.passed : n.vacuous);
      else if (e.verdict == Verdict::KnownDifference) ++n.known;
      else if (e.verdict == Verdict::Unknown) ++n.unknown;
      else ++n.failed;
      progress.report(e, done, n.failed);
    });
    if (!report.empty()) writeReport(suite.entries, options, n);
    std::cout << n.passed + n.vacuous << " passed";
    if (n.vacuous) std::cout << " (" << n.vacuous << " vacuously: no execution exists)";
    std::cout << ", " << n.failed << " failed";
    if (n.unknown) std::cout << ", " << n.unknown << " unknown";
    if (n.known) std::cout << ", " << n.known << " known differences (" << exceptions << ")";
    std::cout << std::endl;
    const ExitCode code = n.failed ? ExitCode::ExpectationFailed : n.unknown ? ExitCode::Unknown : ExitCode::Ok;
    // A given-up test's thread still uses the model and the expectations: end here, before they are destroyed.
    if (suite.abandoned) std::_Exit(static_cast<int>(code));
    return code;
  }

  // Refuses a report that could not be written or would overwrite the expectations, before the suite runs.
  void checkReportPath() const {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::equivalent(report, nvlitmus.empty() ? expected : nvlitmus, ec))
      throw UsageError("--report '" + report + "' is the expectations file: writing the report would overwrite it");
    const fs::path folder = fs::path(report).parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec))
      throw UsageError("--report '" + report + "': the folder '" + folder.string() + "' does not exist");
  }

  struct Counts {
    std::size_t passed = 0, vacuous = 0, failed = 0, unknown = 0, known = 0;
  };

  void writeReport(const std::vector<SuiteEntry>& entries, const SuiteOptions& options, const Counts& n) const {
    nlohmann::json j = {{"expectations", nvlitmus.empty() ? expected : nvlitmus},
                        {"shard", std::to_string(options.shard) + "/" + std::to_string(options.shards)},
                        {"passed", n.passed + n.vacuous}, {"vacuous", n.vacuous}, {"failed", n.failed},
                        {"unknown", n.unknown}, {"known_differences", n.known}, {"tests", nlohmann::json::array()}};
    for (const auto& e : entries) {
      const char* verdict = namesOf(e.verdict).report;
      j["tests"].push_back({{"path", e.expectation.path}, {"expected_holds", e.expectation.holds}, {"verdict", verdict},
                            {"explanation", e.explanation}, {"result", checker::toJson(e.result)}});
    }
    writeFileAtomically(report, jsonText(j, 2) + "\n");
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
  cmd->add_flag("--liveness", state->liveness,
                "the expectations are liveness verdicts (path,1|0: 1 = every execution terminates under --progress, "
                "Dat3M's liveness files); only liveness is judged");
  cmd->add_option("-j,--jobs", state->jobs, "tests checked in parallel")->check(CLI::PositiveNumber);
  cmd->add_option("--shard", state->shard, "run only shard K of N (K/N, 1 <= K <= N), e.g. for Slurm job arrays");
  cmd->add_option("--report", state->report, "write a JSON report of every test to this file");
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
