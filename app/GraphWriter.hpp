// Writing the executions a check drew (--graph): one DOT file each, and an SVG beside it when Graphviz's `dot`
// is installed. `dot` runs with an argument vector (ProcessRunner.hpp), so no folder or test name is ever parsed
// by a shell, whatever quotes, `$()` or spaces it holds.
#pragma once

#include <string>

#include "checker/Outcome.hpp"

namespace ptxmm::app {

/// Creates the --graph folder `dir` when missing; throws UsageError (exit 2) when it cannot be a folder.
void requireGraphFolder(const std::string& dir);

/// Writes `result`'s drawings into `dir` (created when there is one) and notes each file written in
/// `result.notes` ("graph: FILE", the SVG when it was rendered, else the DOT file).
void writeDrawings(checker::TestResult& result, const std::string& dir);

}  // namespace ptxmm::app
