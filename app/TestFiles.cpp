// Reading test files by extension and checking them (TestFiles.hpp).
#include "app/TestFiles.hpp"

#include <filesystem>

#include "app/GraphWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

namespace ptxmm::app {

using checker::errorResult;
using checker::TestResult;

std::vector<frontend::Program> readTests(const std::string& path) {
  if (std::filesystem::path(path).extension() != ".test") return {frontend::parseLitmusFile(path)};
  std::vector<frontend::Program> programs;
  for (auto& test : frontend::parseNvLitmusFile(path)) programs.push_back(std::move(test.program));
  return programs;
}

TestResult checkProgram(const model::CatModel& model, const frontend::Program& program,
                        const checker::RunOptions& options, const std::string& graphDir) {
  TestResult result = checker::checkProgram(model, program, options);
  if (!graphDir.empty()) writeDrawings(result, graphDir);
  return result;
}

TestResult checkFile(const model::CatModel& model, const std::string& path, const checker::RunOptions& options,
                     const std::string& graphDir) {
  try {
    const std::vector<frontend::Program> programs = readTests(path);
    if (programs.size() != 1)
      throw model::UserError({path, 0, 0}, "the file holds " + std::to_string(programs.size()) +
                                               " tests (one per table row): `ptxmm run` checks each, `ptxmm suite "
                                               "--nvlitmus` compares them with their expectations");
    return checkProgram(model, programs.front(), options, graphDir);
  } catch (const model::UserError& e) {
    return errorResult(path, e);
  }
}

std::vector<TestResult> checkTests(const model::CatModel& model, const std::string& path,
                                   const checker::RunOptions& options, const std::string& graphDir) {
  std::vector<frontend::Program> programs;
  try {
    programs = readTests(path);
  } catch (const model::UserError& e) {
    return {errorResult(path, e)};
  }
  std::vector<TestResult> results;
  for (const auto& program : programs) results.push_back(checkProgram(model, program, options, graphDir));
  return results;
}

}  // namespace ptxmm::app
