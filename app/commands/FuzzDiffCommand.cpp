// `ptxmm fuzz-diff`: both engines on seeded random tests (app/fuzz/FuzzDiff.hpp); each difference is minimised
// into a reproducer file, and each test stopped by a limit is named by its seed with the command to rerun it.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <random>

#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "app/fuzz/FuzzDiff.hpp"

namespace ptxmm::app {
namespace {

struct FuzzDiffCommand {
  std::string model = defaultModelFile();
  FuzzOptions fuzz;
  std::optional<std::uint64_t> seed;

  ExitCode run() {
    const auto cat = model::parseCatFile(model);
    // Without --seed a fresh one is drawn; printing it first makes every run reproducible.
    fuzz.seed = seed ? *seed : std::random_device{}();
    std::cout << "fuzz-diff: seed " << fuzz.seed << ", " << fuzz.count << " tests" << std::endl;
    const auto start = std::chrono::steady_clock::now();
    const FuzzReport report = fuzzDiff(cat, fuzz, [&](std::uint64_t s, const FuzzFinding* finding, const FuzzReport& r) {
      if (finding)
        std::cout << "DIFF seed " << s << ": " << finding->difference << "\n  minimal reproducer (" << finding->kind
                  << "): " << (finding->reproducer.empty() ? "not written" : finding->reproducer) << std::endl;
      const std::uint64_t done = s - fuzz.seed + 1;
      if (done % 100 == 0 && done < fuzz.count) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        std::cout << done << "/" << fuzz.count << ": " << r.agree << " agree, " << r.differ << " differ, "
                  << r.inconclusive << " inconclusive (" << std::fixed << std::setprecision(1) << elapsed.count()
                  << " s)" << std::defaultfloat << std::endl;
      }
    });
    std::cout << report.agree << " agree, " << report.differ << " differ, " << report.inconclusive << " inconclusive"
              << std::endl;
    for (const auto& [s, limit] : report.inconclusiveTests)
      std::cout << "inconclusive: seed " << s << " (" << limit << "); rerun with --seed " << s
                << " --count 1 and a larger limit" << std::endl;
    return report.differ ? ExitCode::ExpectationFailed : ExitCode::Ok;
  }
};

}  // namespace

Command addFuzzDiffCommand(CLI::App& app) {
  auto state = std::make_shared<FuzzDiffCommand>();
  state->fuzz.count = 1000;
  state->fuzz.run.engineOptions.timeoutSeconds = 10;
  auto* cmd = app.add_subcommand("fuzz-diff", "run both engines on random litmus tests and minimise each difference");
  cmd->add_option("--count", state->fuzz.count, "number of tests")->capture_default_str();
  cmd->add_option("--seed", state->seed, "seed of the first test; test i uses seed + i (default: a random one)");
  cmd->add_option("--out", state->fuzz.outDir, "directory for the minimal reproducers")->capture_default_str();
  cmd->add_option("--model", state->model, "cat model file")->capture_default_str();
  cmd->add_option("--unroll", state->fuzz.run.unroll, "iterations of each loop per execution")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--timeout", state->fuzz.run.engineOptions.timeoutSeconds,
                  "seconds per test and engine before the test is inconclusive (0: none)")
      ->capture_default_str()
      ->check(secondsValidator());
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
