// `ptxmm vocabulary`: the base sets (event tags) and base relations a cat model can name, from the one table of
// each in model/Vocabulary.hpp.
#include <algorithm>
#include <iostream>

#include "app/commands/Command.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::app {
namespace {

void printVocabulary() {
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

Command addVocabularyCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("vocabulary", "print the base sets and relations a cat model can name");
  return {cmd, [] {
            printVocabulary();
            return ExitCode::Ok;
          }};
}

}  // namespace ptxmm::app
