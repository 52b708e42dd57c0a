// The ptxmm executable: the subcommands (one file each in app/commands/) wired into one CLI11 command line,
// and the one place where what went wrong becomes an exit code (ExitCode.hpp): a bad command line or input 2,
// memory exhausted 3, anything unexpected 4.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <new>

#include "app/OutputFiles.hpp"
#include "app/commands/Command.hpp"
#include "checker/Outcome.hpp"
#include "model/Diagnostic.hpp"

int main(int argc, char** argv) {
  using namespace ptxmm::app;
  CLI::App app{"ptxmm: a memory-model simulator and formal checker for NVIDIA PTX"};
  app.require_subcommand(1);
  const std::vector<Command> commands = addAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::UserError);
  }
  try {
    for (const auto& c : commands)
      if (*c.cli) {
        const int code = static_cast<int>(c.action());
        flushStandardOutput();
        // The answer is out: leave without destroying what is left (the solver's per-thread contexts, the
        // model), which for large tests took longer than the check itself (issue 16 H2).
        std::cerr.flush();
        std::_Exit(code);
      }
    return 0;
  } catch (const ptxmm::model::UserError& e) {
    std::cerr << e.what() << "\n";
    return static_cast<int>(ExitCode::UserError);
  } catch (const UsageError& e) {
    std::cerr << "ptxmm: error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::UserError);
  } catch (const std::bad_alloc&) {
    // Past the checks that report it per test (checkProgram): still a bound, not a bug (issue 16 M1).
    std::cerr << "ptxmm: UNKNOWN: " << ptxmm::checker::outOfMemoryReason() << "\n";
    return static_cast<int>(ExitCode::Unknown);
  } catch (const std::exception& e) {
    std::cerr << "ptxmm: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::InternalError);
  }
}
