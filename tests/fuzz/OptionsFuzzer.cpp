// libFuzzer target for the command line: the input, split at NUL bytes into arguments, is parsed by ptxmm's own
// command line (every command and option, with their validators such as --timeout's) without running the command.
// A parse must succeed or end in CLI11's ParseError (exit 2 in ptxmm); a crash, a sanitizer report or any other
// exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/commands/Command.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"ptxmm"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  args.push_back(current);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  CLI::App app{"ptxmm"};
  app.require_subcommand(1);
  const auto commands = ptxmm::app::addAllCommands(app);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
  }
  return 0;
}
