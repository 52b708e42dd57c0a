// `ptxmm run FILE...`: the final states the model permits for each test, herd7-style text or one JSON object per
// test; the exit code says whether every condition's claim holds (ExitCode.hpp).
#include <iostream>

#include "app/TestFiles.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "checker/ResultPrinter.hpp"

namespace ptxmm::app {
namespace {

struct RunCommand {
  CommonOptions common;
  std::vector<std::string> files;
  bool json = false;

  ExitCode run() {
    std::optional<model::CatModel> other;
    const auto model = loadModel(common, other);
    ExitCode code = ExitCode::Ok;
    for (const auto& f : files)
      for (const checker::TestResult& r : checkTests(model, f, common.run, common.graphDir)) {
        if (r.status == checker::Status::Error) std::cerr << r.reason << "\n";
        if (r.status == checker::Status::Internal) std::cerr << "ptxmm: internal error: " << r.reason << "\n";
        if (json)
          std::cout << checker::toJson(r).dump() << std::endl;
        else if (r.status != checker::Status::Error)
          std::cout << checker::toHerdText(r) << std::endl;
        code = worst(code, exitFor(r));
      }
    return code;
  }
};

}  // namespace

Command addRunCommand(CLI::App& app) {
  auto state = std::make_shared<RunCommand>();
  auto* cmd = app.add_subcommand("run", "list the final states the model permits for litmus tests");
  addCommonOptions(*cmd, state->common);
  cmd->add_flag("--json", state->json, "one JSON object per test and line");
  cmd->add_option("files", state->files, "litmus files")->required();
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
