// The ptxmm command line: `run` lists the outcomes a model permits for litmus tests, `suite` checks tests
// against expectation files, `vocabulary` prints what a cat model can name. Exit codes follow ExitCode.hpp.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <thread>

#include "checker/Differential.hpp"
#include "checker/FuzzDiff.hpp"
#include "checker/ResultPrinter.hpp"
#include "checker/Suite.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "model/ExitCode.hpp"
#include "validate/Validator.hpp"

namespace {

using ptxmm::ExitCode;
using namespace ptxmm::checker;

// A bad option value that CLI11's validators cannot express (exit code 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CommonOptions {
  std::string model;        // --model; empty: the bundled model for the --mbarrier reading
  std::string mbarrier = "strict";
  RunOptions run;
};

// The bundled model of each reading of A6 (mbarrier scopes).
std::string bundledModel(const std::string& reading) {
  return std::string(PTXMM_MODEL_DIR) + (reading == "lenient" ? "/ptx-mbarrier-lenient.cat" : "/ptx.cat");
}

// Loads the model to use; with the bundled model, also the other reading of A6, so a verdict that depends on
// it is reported (RunOptions::otherMbarrierReading).
ptxmm::model::CatModel loadModel(CommonOptions& o, std::optional<ptxmm::model::CatModel>& other) {
  if (!o.model.empty()) return ptxmm::model::parseCatFile(o.model);
  const std::string otherReading = o.mbarrier == "lenient" ? "strict" : "lenient";
  other = ptxmm::model::parseCatFile(bundledModel(otherReading));
  o.run.otherMbarrierReading = &*other;
  o.run.otherMbarrierName = otherReading;
  return ptxmm::model::parseCatFile(bundledModel(o.mbarrier));
}

void addCommonOptions(CLI::App& cmd, CommonOptions& o) {
  cmd.add_option("--model", o.model, "cat model file (default: the bundled PTX model, model/cat/ptx.cat)");
  cmd.add_option("--mbarrier", o.mbarrier, "reading A6 of mbarrier scopes for the bundled model: strict or lenient")
      ->capture_default_str()
      ->check(CLI::IsMember({"strict", "lenient"}));
  cmd.add_option("--unroll", o.run.unroll, "iterations of each loop per execution")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd.add_option("--engine", o.run.engine, "decision engine")->capture_default_str()->check(CLI::IsMember(engineNames()));
  cmd.add_option("--timeout", o.run.limits.timeoutSeconds, "seconds per test before the verdict is UNKNOWN (0: none)")
      ->check(CLI::NonNegativeNumber);
  cmd.add_option("--max-candidates", o.run.limits.maxCandidates,
                 "explicit engine: candidate executions per test before the verdict is UNKNOWN (0: none)");
  cmd.add_option("--seed", o.run.z3.seed, "z3 engine: the solver's random seed (results do not depend on it)")
      ->capture_default_str();
  cmd.add_flag("--races", o.run.limits.races, "also report every pair of racing instructions");
  cmd.add_flag("--explain", o.run.explain,
               "for a forbidden outcome the condition asks about, name the smallest sets of axioms forbidding it and "
               "show what each rejects");
  cmd.add_option("--graph", o.run.graphDir, "write one DOT (and SVG) file per shown execution into this folder");
  static const std::map<std::string, Show> kShows{{"witness", Show::Witness}, {"all", Show::All}, {"forbidden", Show::Forbidden}};
  cmd.add_option_function<std::string>(
         "--show", [&o](const std::string& name) { o.run.show = kShows.at(name); },
         "which executions --graph draws: witness, all or forbidden")
      ->check(CLI::IsMember(kShows));
  cmd.add_option("--max-events", o.run.maxEvents, "events in the unrolled test before the verdict is UNKNOWN (0: none)");
  cmd.add_flag("--cross-check", o.run.z3.crossCheck,
               "z3 engine: re-decide every solution with the explicit evaluator; a disagreement exits 4");
}

ExitCode exitFor(const TestResult& r) {
  switch (r.status) {
    case Status::Error: return ExitCode::UserError;
    case Status::Internal: return ExitCode::InternalError;
    case Status::Unknown: return ExitCode::Unknown;
    case Status::Ok: return r.holds ? ExitCode::Ok : ExitCode::ExpectationFailed;
  }
  return ExitCode::InternalError;
}

ExitCode run(CommonOptions o, const std::vector<std::string>& files, bool json) {
  std::optional<ptxmm::model::CatModel> other;
  const auto model = loadModel(o, other);
  ExitCode code = ExitCode::Ok;
  for (const auto& f : files)
    for (const TestResult& r : checkTests(model, f, o.run)) {
      if (r.status == Status::Error) std::cerr << r.reason << "\n";
      if (r.status == Status::Internal) std::cerr << "ptxmm: internal error: " << r.reason << "\n";
      if (json)
        std::cout << toJson(r).dump() << std::endl;
      else if (r.status != Status::Error)
        std::cout << toHerdText(r) << std::endl;
      code = ptxmm::worst(code, exitFor(r));
    }
  return code;
}

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

ExitCode suite(CommonOptions o, const std::string& expected, const std::string& nvlitmus, std::string root,
               const std::string& exceptions, int jobs, const std::string& shard, const std::string& report) {
  if (expected.empty() == nvlitmus.empty()) throw UsageError("suite needs --expected FILE or --nvlitmus DIR");
  std::optional<ptxmm::model::CatModel> other;
  const auto model = loadModel(o, other);
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
  options.run = o.run;
  if (!exceptions.empty()) options.knownDifferences = readKnownDifferences(exceptions);
  std::size_t passed = 0, failed = 0, known = 0;
  Progress progress(expectations.size());
  const auto entries = runSuite(model, expectations, options, [&](const SuiteEntry& e, std::size_t done) {
    if (e.verdict == Verdict::Pass) ++passed;
    else if (e.verdict == Verdict::KnownDifference) ++known;
    else ++failed;
    progress.report(e, done, failed);
  });
  if (!report.empty()) {
    nlohmann::json j = {{"expectations", nvlitmus.empty() ? expected : nvlitmus}, {"shard", std::to_string(options.shard) + "/" + std::to_string(options.shards)},
                        {"passed", passed}, {"failed", failed}, {"known_differences", known}, {"tests", nlohmann::json::array()}};
    for (const auto& e : entries) {
      const char* verdict = e.verdict == Verdict::Pass ? "pass" : e.verdict == Verdict::KnownDifference ? "known-difference"
                            : e.verdict == Verdict::StaleDifference ? "stale-difference" : "fail";
      j["tests"].push_back({{"path", e.expectation.path}, {"expected_holds", e.expectation.holds}, {"verdict", verdict},
                            {"explanation", e.explanation}, {"result", toJson(e.result)}});
    }
    std::ofstream(report) << j.dump(2) << "\n";
  }
  std::cout << passed << " passed, " << failed << " failed";
  if (known) std::cout << ", " << known << " known differences (" << exceptions << ")";
  std::cout << std::endl;
  return failed ? ExitCode::ExpectationFailed : ExitCode::Ok;
}

// Race reports only: 0 when every file is race-free, 1 when some file has a race.
ExitCode races(CommonOptions o, const std::vector<std::string>& files, bool json) {
  o.run.limits.races = true;
  std::optional<ptxmm::model::CatModel> other;
  const auto model = loadModel(o, other);
  ExitCode code = ExitCode::Ok;
  for (const auto& f : files) {
    const TestResult r = checkFile(model, f, o.run);
    if (r.status == Status::Error || r.status == Status::Internal) {
      std::cerr << r.reason << "\n";
      code = ptxmm::worst(code, exitFor(r));
      continue;
    }
    if (json) {
      std::cout << toJson(r).dump() << std::endl;
    } else {
      std::cout << r.name << ": " << (r.status == Status::Unknown ? "UNKNOWN (" + r.reason + ")"
                                      : r.races.empty()           ? std::string("race-free")
                                                                  : std::to_string(r.races.size()) + " race(s)")
                << "\n";
      for (const auto& race : r.races) std::cout << "  " << raceLine(race) << "\n    fix: " << race.fix << "\n";
    }
    code = ptxmm::worst(code, r.status == Status::Unknown ? ExitCode::Unknown
                              : r.races.empty()           ? ExitCode::Ok
                                                          : ExitCode::ExpectationFailed);
  }
  return code;
}

// Both engines on each file; any difference is a bug in one of them.
ExitCode diff(CommonOptions o, const std::vector<std::string>& files) {
  std::optional<ptxmm::model::CatModel> other;
  const auto model = loadModel(o, other);
  ExitCode code = ExitCode::Ok;
  std::size_t same = 0, different = 0, inconclusive = 0;
  for (const auto& f : files)
    for (const auto& program : ptxmm::checker::readTests(f)) {
      const EngineComparison c = compareEngines(model, program, o.run);
      const std::string what = f + (program.name.find('#') != std::string::npos ? " (" + program.name + ")" : "");
      if (c.inconclusive) {
        ++inconclusive;
        std::cout << "INCONCLUSIVE " << what << ": " << c.limit << "\n";
      } else if (!c.difference.empty()) {
        ++different;
        std::cout << "DIFF " << what << ": " << c.difference << "\n";
        code = ExitCode::ExpectationFailed;
      } else {
        ++same;
      }
    }
  std::cout << same << " agree, " << different << " differ, " << inconclusive << " inconclusive" << std::endl;
  return code;
}

struct FuzzCommand {
  std::string model = std::string(PTXMM_MODEL_DIR) + "/ptx.cat";
  FuzzOptions fuzz;
  std::optional<std::uint64_t> seed;
};

// Both engines on random tests; every difference is minimised into a reproducer file.
ExitCode fuzzDiffCommand(FuzzCommand& o) {
  const auto model = ptxmm::model::parseCatFile(o.model);
  // Without --seed a fresh one is drawn; printing it first makes every run reproducible.
  o.fuzz.seed = o.seed ? *o.seed : std::random_device{}();
  std::cout << "fuzz-diff: seed " << o.fuzz.seed << ", " << o.fuzz.count << " tests" << std::endl;
  const auto start = std::chrono::steady_clock::now();
  const FuzzReport report = fuzzDiff(model, o.fuzz, [&](std::uint64_t seed, const FuzzFinding* finding, const FuzzReport& r) {
    if (finding)
      std::cout << "DIFF seed " << seed << ": " << finding->difference << "\n  minimal reproducer ("
                << finding->kind << "): " << (finding->reproducer.empty() ? "not written" : finding->reproducer)
                << std::endl;
    const std::uint64_t done = seed - o.fuzz.seed + 1;
    if (done % 100 == 0 && done < o.fuzz.count) {
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      std::cout << done << "/" << o.fuzz.count << ": " << r.agree << " agree, " << r.differ << " differ, "
                << r.inconclusive << " inconclusive (" << std::fixed << std::setprecision(1) << elapsed.count()
                << " s)" << std::defaultfloat << std::endl;
    }
  });
  std::cout << report.agree << " agree, " << report.differ << " differ, " << report.inconclusive << " inconclusive"
            << std::endl;
  for (const auto& [seed, limit] : report.inconclusiveTests)
    std::cout << "inconclusive: seed " << seed << " (" << limit << "); rerun with --seed " << seed
              << " --count 1 and a larger limit" << std::endl;
  return report.differ ? ExitCode::ExpectationFailed : ExitCode::Ok;
}

// `validate` (validate/Validator.hpp): runs litmus tests on a GPU and compares the histogram with the model.
// Registers the subcommand on `app` and returns the function that runs it once parsed.
std::function<ExitCode()> addValidateCommand(CLI::App& app, CLI::App*& cmd) {
  struct State {
    ptxmm::validate::ValidateOptions options;
    std::vector<std::string> files;
    std::string compare;
    std::uint64_t seed = 0;
  };
  auto s = std::make_shared<State>();
  s->options.modelFile = std::string(PTXMM_MODEL_DIR) + "/ptx.cat";
  cmd = app.add_subcommand("validate", "run litmus tests on the GPU and compare the observed outcomes with the model");
  cmd->add_option("files", s->files, "litmus files");
  cmd->add_option("--budget", s->options.budget, "seconds of GPU time per test (and per sibling)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  auto* seed = cmd->add_option("--seed", s->seed, "seed of the parameters and layouts (default: a fresh one, printed)");
  cmd->add_option("--out", s->options.outDir, "folder for the generated programs and their SASS (default: the temp folder)");
  cmd->add_flag("--json", s->options.json, "one JSON object per test and line");
  cmd->add_flag("--compile-only", s->options.compileOnly, "generate, compile and check the SASS only (no GPU needed)");
  cmd->add_option("--params", s->options.paramsFile, "parameter space (default: validate/params/default.json)");
  cmd->add_option("--sibling", s->options.siblingFile, "the allowed sibling of a forbidden test (one test only)");
  cmd->add_flag("--tune", s->options.tune, "search the parameters for the most weak outcomes per second");
  cmd->add_option("--trials", s->options.trials, "--tune: parameter sets to try")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--compare", s->compare, "re-check a stored JSON report against the current model (no GPU)");
  cmd->add_option("--report", s->options.reportFile, "also write all tests into one JSON report");
  cmd->add_option("--model", s->options.modelFile, "cat model file")->capture_default_str();
  cmd->add_option("--unroll", s->options.run.unroll, "iterations of each loop per execution (model)")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_option("--engine", s->options.run.engine, "decision engine of the model check")
      ->capture_default_str()->check(CLI::IsMember(engineNames()));
  return [s, seed] {
    if (*seed) s->options.seed = s->seed;
    if (!s->compare.empty()) return ptxmm::validate::compareReport(s->compare, s->options);
    if (s->files.empty()) throw UsageError("validate needs litmus files (or --compare REPORT)");
    if (!s->options.siblingFile.empty() && s->files.size() != 1) throw UsageError("--sibling goes with exactly one test");
    return ptxmm::validate::validateFiles(s->files, s->options);
  };
}

void vocabulary() {
  using namespace ptxmm::model;
  std::cout << "Base sets (event tags):\n";
  for (std::size_t t = 0; t < kTagCount; ++t) {
    const auto& info = tagInfo(static_cast<Tag>(t));
    std::cout << "  " << info.name << std::string(10 - std::min<std::size_t>(9, info.name.size()), ' ') << info.meaning << "\n";
  }
  std::cout << "Base relations:\n";
  for (std::size_t r = 0; r < kBaseRelCount; ++r) {
    const auto& info = baseRelInfo(static_cast<BaseRel>(r));
    std::cout << "  " << info.name << std::string(12 - std::min<std::size_t>(11, info.name.size()), ' ') << info.meaning << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ptxmm: a memory-model simulator and formal checker for NVIDIA PTX"};
  app.require_subcommand(1);

  CommonOptions runOpts;
  std::vector<std::string> files;
  bool json = false;
  auto* runCmd = app.add_subcommand("run", "list the final states the model permits for litmus tests");
  addCommonOptions(*runCmd, runOpts);
  runCmd->add_flag("--json", json, "one JSON object per test and line");
  runCmd->add_option("files", files, "litmus files")->required();

  CommonOptions suiteOpts;
  std::string expected, nvlitmus, root, exceptions;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto* suiteCmd = app.add_subcommand(
      "suite", "check tests against an expectations file (path,1|0[,states]) or nvlitmus tests against their own");
  addCommonOptions(*suiteCmd, suiteOpts);
  auto* expectedOpt = suiteCmd->add_option("--expected", expected, "expectations file");
  auto* rootOpt =
      suiteCmd->add_option("--root", root, "directory the paths are relative to (default: the file's directory)");
  suiteCmd->add_option("--nvlitmus", nvlitmus,
                       "instead of --expected: a directory of NVIDIA nvlitmus .test files (or one file); every table "
                       "row is a test named FILE#ROW whose permit/assert line is the expectation")
      ->excludes(expectedOpt)
      ->excludes(rootOpt);
  suiteCmd->add_option("--exceptions", exceptions, "known differences, one 'path reason' per line");
  suiteCmd->add_option("-j,--jobs", jobs, "tests checked in parallel")->check(CLI::PositiveNumber);
  std::string shard, report;
  suiteCmd->add_option("--shard", shard, "run only shard K of N (K/N, 1 <= K <= N), e.g. for Slurm job arrays");
  suiteCmd->add_option("--report", report, "write a JSON report of every test to this file");

  CommonOptions raceOpts;
  std::vector<std::string> raceFiles;
  bool raceJson = false;
  auto* racesCmd = app.add_subcommand("races", "report the PTX data races of litmus tests (exit 1 if any)");
  addCommonOptions(*racesCmd, raceOpts);
  racesCmd->add_flag("--json", raceJson, "one JSON object per test and line");
  racesCmd->add_option("files", raceFiles, "litmus files")->required();

  CommonOptions diffOpts;
  std::vector<std::string> diffFiles;
  auto* diffCmd = app.add_subcommand("diff", "run both engines on litmus files and report any difference");
  addCommonOptions(*diffCmd, diffOpts);
  diffCmd->add_option("files", diffFiles, "litmus files")->required();

  FuzzCommand fuzzOpts;
  fuzzOpts.fuzz.count = 1000;
  fuzzOpts.fuzz.run.limits.timeoutSeconds = 10;
  auto* fuzzCmd = app.add_subcommand("fuzz-diff", "run both engines on random litmus tests and minimise each difference");
  fuzzCmd->add_option("--count", fuzzOpts.fuzz.count, "number of tests")->capture_default_str();
  fuzzCmd->add_option("--seed", fuzzOpts.seed, "seed of the first test; test i uses seed + i (default: a random one)");
  fuzzCmd->add_option("--out", fuzzOpts.fuzz.outDir, "directory for the minimal reproducers")->capture_default_str();
  fuzzCmd->add_option("--model", fuzzOpts.model, "cat model file")->capture_default_str();
  fuzzCmd->add_option("--unroll", fuzzOpts.fuzz.run.unroll, "iterations of each loop per execution")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  fuzzCmd->add_option("--timeout", fuzzOpts.fuzz.run.limits.timeoutSeconds,
                      "seconds per test and engine before the test is inconclusive (0: none)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);

  CLI::App* validateCmd = nullptr;
  const auto runValidate = addValidateCommand(app, validateCmd);

  auto* vocabCmd = app.add_subcommand("vocabulary", "print the base sets and relations a cat model can name");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::UserError);
  }
  try {
    if (*runCmd) return static_cast<int>(run(runOpts, files, json));
    if (*suiteCmd) return static_cast<int>(suite(suiteOpts, expected, nvlitmus, root, exceptions, jobs, shard, report));
    if (*racesCmd) return static_cast<int>(races(raceOpts, raceFiles, raceJson));
    if (*diffCmd) return static_cast<int>(diff(diffOpts, diffFiles));
    if (*fuzzCmd) return static_cast<int>(fuzzDiffCommand(fuzzOpts));
    if (*validateCmd) return static_cast<int>(runValidate());
    if (*vocabCmd) vocabulary();
    return 0;
  } catch (const ptxmm::model::UserError& e) {
    std::cerr << e.what() << "\n";
    return static_cast<int>(ExitCode::UserError);
  } catch (const UsageError& e) {
    std::cerr << "ptxmm: error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::UserError);
  } catch (const std::exception& e) {
    std::cerr << "ptxmm: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::InternalError);
  }
}
