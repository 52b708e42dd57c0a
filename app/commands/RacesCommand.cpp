// `ptxmm races FILE|DIR...`: the PTX data races of each test (a directory: every test file under it), each with its
// kind, its two instructions and a fix; exit 0 when every file is race-free, 1 when some file has a race. After
// several tests, the text output ends with a one-line summary.
#include <iostream>

#include "app/ExitTally.hpp"
#include "app/OutputFiles.hpp"
#include "app/TestFiles.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "checker/ResultPrinter.hpp"

namespace ptxmm::app {
namespace {

struct RacesCommand {
  CommonOptions common;
  std::vector<std::string> files;
  bool json = false;

  ExitCode run() {
    common.run.engineOptions.races = true;
    std::optional<model::CatModel> other;
    const auto model = loadModel(common, other);
    ExitCode code = ExitCode::Ok;
    ExitTally tally;
    Watchdog watchdog;
    for (const auto& f : testFilesNamed(files, code)) {
      const auto results = checkTestsGuarded(watchdog, model, f, common.run, common.graphDir,
                                             [&](const checker::TestResult& r) { report(r); }, code);
      for (const checker::TestResult& r : results) {
        const ExitCode one = report(r);
        code = worst(code, one);
        tally.add(one);
      }
    }
    if (!json && tally.total() > 1) std::cout << tally.summary("race-free", "with races") << std::endl;
    return code;
  }

  // Prints one test's races (or its error) and says how the test ends.
  ExitCode report(const checker::TestResult& r) const {
    for (const auto& w : r.warnings) std::cerr << w << "\n";
    if (r.status == checker::Status::Error || r.status == checker::Status::Internal) {
      std::cerr << r.reason << "\n";
      return exitFor(r);
    }
    if (json) {
      std::cout << jsonText(checker::toJson(r)) << std::endl;
    } else {
      std::cout << r.name << ": "
                << (r.status == checker::Status::Unknown ? "UNKNOWN (" + r.reason + ")"
                    : r.races.empty()                    ? std::string("race-free")
                                                         : std::to_string(r.races.size()) + " race(s)")
                << "\n";
      for (const auto& race : r.races) std::cout << "  " << checker::raceLine(race) << "\n    fix: " << race.fix << "\n";
    }
    return r.status == checker::Status::Unknown ? ExitCode::Unknown
           : r.races.empty()                    ? ExitCode::Ok
                                                : ExitCode::ExpectationFailed;
  }
};

}  // namespace

Command addRacesCommand(CLI::App& app) {
  auto state = std::make_shared<RacesCommand>();
  auto* cmd = app.add_subcommand("races", "report the PTX data races of litmus tests (exit 1 if any)");
  addCommonOptions(*cmd, state->common);
  cmd->add_flag("--json", state->json, "one JSON object per test and line");
  cmd->add_option("files", state->files, "litmus or nvlitmus files, or directories of them")->required();
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
