// The list of commands (Command.hpp), in the order `ptxmm --help` shows them.
#include "app/commands/Command.hpp"

namespace ptxmm::app {

std::vector<Command> addAllCommands(CLI::App& app) {
  return {addRunCommand(app),      addSuiteCommand(app),    addRacesCommand(app),  addDiffCommand(app),
          addFuzzDiffCommand(app), addValidateCommand(app), addKernelCommand(app), addVocabularyCommand(app)};
}

}  // namespace ptxmm::app
