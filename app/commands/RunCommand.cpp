// `ptxmm run FILE|DIR...`: the final states the model permits for each test (a directory: every test file under it),
// herd7-style text or one JSON object per test; the exit code says whether every condition's claim holds, the most
// severe over all files (ExitCode.hpp). After several tests, the text output ends with a one-line summary.
#include <filesystem>
#include <iostream>

#include "app/ExitTally.hpp"
#include "app/OutputFiles.hpp"
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
    ExitTally tally;
    Watchdog watchdog;
    for (const auto& f : testFilesNamed(files, code)) {
      const auto results = checkTestsGuarded(watchdog, model, f, common.run, common.graphDir,
                                             [&](const checker::TestResult& r) { print(r); }, code);
      for (const checker::TestResult& r : results) {
        print(r);
        code = worst(code, exitFor(r));
        tally.add(exitFor(r));
      }
    }
    if (!json && tally.total() > 1) std::cout << tally.summary("Ok", "No (a claim fails or a hang)") << std::endl;
    if (!json && tally.total() > tally.counts[static_cast<int>(ExitCode::UserError)])
      std::cout << checker::testHeaderKey() << std::endl;
    return code;
  }

  void print(const checker::TestResult& r) const {
    for (const auto& w : r.warnings) std::cerr << w << "\n";
    if (r.status == checker::Status::Error) std::cerr << r.reason << "\n";
    if (r.status == checker::Status::Internal) std::cerr << "ptxmm: internal error: " << r.reason << "\n";
    if (json)
      std::cout << jsonText(checker::toJson(r)) << std::endl;
    else if (r.status != checker::Status::Error)
      std::cout << checker::toHerdText(r) << std::endl;
  }
};

}  // namespace

Command addRunCommand(CLI::App& app) {
  auto state = std::make_shared<RunCommand>();
  auto* cmd = app.add_subcommand("run", "list the final states the model permits for litmus tests");
  cmd->footer(checker::testHeaderKey());
  addCommonOptions(*cmd, state->common);
  cmd->add_flag("--json", state->json, "one JSON object per test and line");
  cmd->add_option("files", state->files, "litmus or nvlitmus files, or directories of them")->required();
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
