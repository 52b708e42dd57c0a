// Running other programs (nvcc, cuobjdump, the generated CUDA programs, Graphviz's dot): always with an
// argument vector and never through a shell, so no file name a user chose is ever parsed as a command; with a
// time limit that ends the program and everything it started.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ptxmm::app {

struct CommandResult {
  int status = -1;     // the exit status; 124 when the time limit killed it, 127 when it could not be started
  std::string output;  // stdout and stderr together
};

/// Runs `argv` (argv[0] a path to the program) with a time limit in seconds (0: none) and `extraEnvironment`
/// ("NAME=value") added to ours, capturing both output streams.
CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds = 0,
                         const std::vector<std::string>& extraEnvironment = {});

/// Whether `path` is an executable regular file.
bool isExecutable(const std::string& path);

/// The folders of $PATH, in order.
std::vector<std::string> pathFolders();

/// The first executable called `name` in `folders`, or nullopt.
std::optional<std::string> findProgram(const std::string& name, const std::vector<std::string>& folders);

}  // namespace ptxmm::app
