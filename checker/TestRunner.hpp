// One litmus file from disk to a TestResult: parse, unroll, run the chosen engine. User errors become a
// result with status Error whose reason is the `file:line:col: error:` diagnostic, so batch commands can go
// on with the next file and still exit 2.
#pragma once

#include <memory>
#include <string>

#include "checker/Engine.hpp"
#include "checker/z3/Z3Engine.hpp"

namespace ptxmm::checker {

struct RunOptions {
  int unroll = 2;
  std::string engine = "z3";
  EngineOptions limits;
  Z3Options z3;
};

/// The engine named by `options.engine` over `model` (the CLI validates the name against engineNames()).
std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options);

/// Checks one litmus file.
TestResult checkFile(const model::CatModel& model, const std::string& path, const RunOptions& options);

/// The engines `makeEngine` knows.
const std::vector<std::string>& engineNames();

}  // namespace ptxmm::checker
