// The options `run`, `suite`, `races` and `diff` share (model, engine, limits, what to show), how they load the
// model, and the exit code of one checked test.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "app/ExitCode.hpp"
#include "checker/TestRunner.hpp"
#include "model/CatParser.hpp"

namespace ptxmm::app {

struct CommonOptions {
  std::string model;  // --model; empty: the bundled model for the --mbarrier reading
  std::string mbarrier = "strict";
  checker::RunOptions run;
  std::string graphDir;  // --graph: write one DOT (and SVG) file per drawn execution here
  checker::Show show = checker::Show::Witness;
  std::string maxMemory;  // --max-memory as given; empty: defaultMemoryLimit()
};

/// Adds the shared options to `cmd`.
void addCommonOptions(CLI::App& cmd, CommonOptions& o);

/// Loads the model to use; with the bundled model, also the other reading of A6 into `other`, so a verdict that
/// depends on it is reported (RunOptions::otherMbarrierReading). Also turns --graph into drawing (creating its
/// folder) and applies --max-memory: the steps every command takes before checking anything.
model::CatModel loadModel(CommonOptions& o, std::optional<model::CatModel>& other);

/// The exit code of one result: its status, or for a completed check whether the condition's claim holds.
ExitCode exitFor(const checker::TestResult& r);

/// Checks a --timeout value: finite seconds from 0 (no limit) to a year; `nan`, `inf`, negative numbers and words
/// are refused (exit 2).
CLI::Validator secondsValidator();

/// The bundled PTX model file (model/cat/ptx.cat), the default of the commands without --mbarrier.
std::string defaultModelFile();

}  // namespace ptxmm::app
