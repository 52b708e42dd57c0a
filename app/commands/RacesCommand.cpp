// `ptxmm races FILE...`: the PTX data races of each test, each with its kind, its two instructions and a fix;
// exit 0 when every file is race-free, 1 when some file has a race.
#include <iostream>

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
    for (const auto& f : files) {
      const checker::TestResult r = checkFile(model, f, common.run, common.graphDir);
      if (r.status == checker::Status::Error || r.status == checker::Status::Internal) {
        std::cerr << r.reason << "\n";
        code = worst(code, exitFor(r));
        continue;
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
      code = worst(code, r.status == checker::Status::Unknown ? ExitCode::Unknown
                         : r.races.empty()                    ? ExitCode::Ok
                                                              : ExitCode::ExpectationFailed);
    }
    return code;
  }
};

}  // namespace

Command addRacesCommand(CLI::App& app) {
  auto state = std::make_shared<RacesCommand>();
  auto* cmd = app.add_subcommand("races", "report the PTX data races of litmus tests (exit 1 if any)");
  addCommonOptions(*cmd, state->common);
  cmd->add_flag("--json", state->json, "one JSON object per test and line");
  cmd->add_option("files", state->files, "litmus files")->required();
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
