// Test files from disk to TestResults. The reader is chosen by the file's extension: `.test` is NVIDIA's
// nvlitmus format (one test per table row), anything else a litmus test. Each test goes through
// checker::checkProgram; the executions it drew are written into the --graph folder. User errors become a
// result with status Error whose reason is the `file:line:col: error:` diagnostic, so batch commands go on with
// the next file and still exit 2. A directory named on the command line stands for the test files under it; the
// suite's nvlitmus directories are walked by the same function.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "app/ExitCode.hpp"
#include "app/Watchdog.hpp"
#include "checker/TestRunner.hpp"
#include "frontend/Program.hpp"

namespace ptxmm::app {

/// Every regular file under `dir` (searched recursively) whose extension is one of `extensions`, in path order.
std::vector<std::filesystem::path> filesUnder(const std::filesystem::path& dir, const std::vector<std::string>& extensions);

/// The test files a command-line argument names: the argument itself, or, for a directory, every `.litmus` and
/// `.test` file under it (filesUnder). Throws model::UserError for a directory that holds none.
std::vector<std::string> testFilesNamed(const std::string& argument);

/// The test files of every argument, in order; an argument that names none is reported on stderr and makes `code`
/// a user error (exit 2) while the others still run.
std::vector<std::string> testFilesNamed(const std::vector<std::string>& arguments, ExitCode& code);

/// The tests of a file: one for a litmus file, one per table row for an nvlitmus `.test` file. Throws
/// model::UserError.
std::vector<frontend::Program> readTests(const std::string& path);

/// checker::checkProgram plus the input's warnings (frontend::nameWarnings), then its drawings written into `graphDir`
/// (nothing is written when it is empty).
checker::TestResult checkProgram(const model::CatModel& model, const frontend::Program& program,
                                 const checker::RunOptions& options, const std::string& graphDir);

/// Checks a file holding one test: a litmus file, or an nvlitmus `.test` file without a table (one with several
/// tests gives an Error result; see checkTests).
checker::TestResult checkFile(const model::CatModel& model, const std::string& path, const checker::RunOptions& options,
                              const std::string& graphDir);

/// Checks every test of a file. A file that cannot be read or parsed gives one Error result.
std::vector<checker::TestResult> checkTests(const model::CatModel& model, const std::string& path,
                                            const checker::RunOptions& options, const std::string& graphDir);

/// checkTests under `watchdog` (the backstop of --timeout in `run` and `races`): when the check overruns the
/// timeout by kWatchdogGraceSeconds in a stage the engines cannot stop (unrolling, encoding, drawing, freeing),
/// `report` gets an UNKNOWN result for the file and the process ends with the worse of `code` and exit 3.
std::vector<checker::TestResult> checkTestsGuarded(Watchdog& watchdog, const model::CatModel& model, const std::string& path,
                                                   const checker::RunOptions& options, const std::string& graphDir,
                                                   const std::function<void(const checker::TestResult&)>& report,
                                                   const ExitCode& code);

}  // namespace ptxmm::app
