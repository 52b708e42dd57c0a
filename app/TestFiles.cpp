// Reading test files by extension and checking them (TestFiles.hpp).
#include "app/TestFiles.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/GraphWriter.hpp"
#include "frontend/NameWarnings.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

namespace ptxmm::app {

using checker::errorResult;
using checker::TestResult;

std::vector<std::filesystem::path> filesUnder(const std::filesystem::path& dir, const std::vector<std::string>& extensions) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, error))
    if (entry.is_regular_file(error) &&
        std::find(extensions.begin(), extensions.end(), entry.path().extension().string()) != extensions.end())
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> testFilesNamed(const std::string& argument) {
  std::error_code error;
  if (!std::filesystem::is_directory(argument, error)) return {argument};
  std::vector<std::string> files;
  for (const auto& file : filesUnder(argument, {".litmus", ".test"})) files.push_back(file.string());
  if (files.empty())
    throw model::UserError({argument, 0, 0}, "the directory holds no test file (.litmus or .test, searched recursively)");
  return files;
}

std::vector<std::string> testFilesNamed(const std::vector<std::string>& arguments, ExitCode& code) {
  std::vector<std::string> files;
  for (const auto& argument : arguments) {
    try {
      for (auto& file : testFilesNamed(argument)) files.push_back(std::move(file));
    } catch (const model::UserError& e) {
      std::cerr << e.what() << "\n";
      code = worst(code, ExitCode::UserError);
    }
  }
  return files;
}

std::vector<frontend::Program> readTests(const std::string& path) {
  if (std::filesystem::path(path).extension() != ".test") return {frontend::parseLitmusFile(path)};
  std::vector<frontend::Program> programs;
  for (auto& test : frontend::parseNvLitmusFile(path)) programs.push_back(std::move(test.program));
  return programs;
}

TestResult checkProgram(const model::CatModel& model, const frontend::Program& program,
                        const checker::RunOptions& options, const std::string& graphDir) {
  TestResult result = checker::checkProgram(model, program, options);
  if (result.status != checker::Status::Error) result.warnings = frontend::nameWarnings(program);
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

std::vector<checker::TestResult> checkTestsGuarded(Watchdog& watchdog, const model::CatModel& model, const std::string& path,
                                                   const checker::RunOptions& options, const std::string& graphDir,
                                                   const std::function<void(const checker::TestResult&)>& report,
                                                   const ExitCode& code) {
  const double timeout = options.engineOptions.timeoutSeconds;
  watchdog.arm(timeout > 0 ? timeout + kWatchdogGraceSeconds : 0, [&] {
    checker::TestResult r;
    r.name = std::filesystem::path(path).stem().string();
    r.file = path;
    r.status = checker::Status::Unknown;
    r.resourceLimit = true;
    r.reason = checker::timeoutReason(timeout) +
               " (unrolling, encoding, drawing or freeing the test overran it; ptxmm stops here)";
    report(r);
    std::cout.flush();
    std::_Exit(static_cast<int>(worst(code, ExitCode::Unknown)));
  });
  auto results = checkTests(model, path, options, graphDir);
  watchdog.disarm();
  return results;
}

}  // namespace ptxmm::app
