// What main.cpp wires together: each command registers its CLI11 subcommand with its options and returns the
// action to run once the command line is parsed; a command's file holds its options, action and output.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <stdexcept>
#include <vector>

#include "app/ExitCode.hpp"

namespace ptxmm::app {

struct Command {
  CLI::App* cli = nullptr;            // the subcommand, to ask whether it was given
  std::function<ExitCode()> action;   // runs it once the command line is parsed
};

/// A bad option value that CLI11's validators cannot express (exit code 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `run`: the final states the model permits for test files.
Command addRunCommand(CLI::App& app);
/// `suite`: tests against an expectations file, or nvlitmus tests against their own.
Command addSuiteCommand(CLI::App& app);
/// `races`: the PTX data races of test files.
Command addRacesCommand(CLI::App& app);
/// `diff`: both engines on test files.
Command addDiffCommand(CLI::App& app);
/// `fuzz-diff`: both engines on random tests, differences minimised into reproducer files.
Command addFuzzDiffCommand(CLI::App& app);
/// `validate`: tests on a GPU, compared with the model (also --tune and --compare).
Command addValidateCommand(CLI::App& app);
/// `kernel`: a CUDA or PTX kernel checked at its launch configuration.
Command addKernelCommand(CLI::App& app);
/// `vocabulary`: the base sets and relations a cat model can name.
Command addVocabularyCommand(CLI::App& app);

/// Every command above registered on `app` (main.cpp's command line; the option-parser fuzz target's too).
std::vector<Command> addAllCommands(CLI::App& app);

}  // namespace ptxmm::app
