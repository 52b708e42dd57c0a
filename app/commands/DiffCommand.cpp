// `ptxmm diff FILE...`: both engines on every test (checker/Differential.hpp); any difference is a bug in one of
// them (exit 1).
#include <iostream>

#include "app/TestFiles.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "checker/Differential.hpp"

namespace ptxmm::app {
namespace {

struct DiffCommand {
  CommonOptions common;
  std::vector<std::string> files;

  ExitCode run() {
    std::optional<model::CatModel> other;
    const auto model = loadModel(common, other);
    ExitCode code = ExitCode::Ok;
    std::size_t same = 0, different = 0, inconclusive = 0;
    for (const auto& f : files)
      for (const auto& program : readTests(f)) {
        const checker::EngineComparison c = checker::compareEngines(model, program, common.run);
        const std::string what = f + (program.name.find('#') != std::string::npos ? " (" + program.name + ")" : "");
        if (c.inconclusive) {
          ++inconclusive;
          std::cout << "INCONCLUSIVE " << what << ": " << c.limit << "\n";
          code = worst(code, ExitCode::Unknown);  // a bound stopped it: nothing was compared
        } else if (!c.difference.empty()) {
          ++different;
          std::cout << "DIFF " << what << ": " << c.difference << "\n";
          code = worst(code, ExitCode::ExpectationFailed);
        } else {
          ++same;
        }
      }
    std::cout << same << " agree, " << different << " differ, " << inconclusive << " inconclusive" << std::endl;
    return code;
  }
};

}  // namespace

Command addDiffCommand(CLI::App& app) {
  auto state = std::make_shared<DiffCommand>();
  auto* cmd = app.add_subcommand("diff", "run both engines on litmus files and report any difference");
  addCommonOptions(*cmd, state->common);
  cmd->add_option("files", state->files, "litmus files")->required();
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
