// How many tests of a batch ended with each exit code, and the one line `run` and `races` print after a batch of
// several tests (a directory run), so a user sees the totals without scrolling back through the reports.
#pragma once

#include <array>
#include <string>

#include "app/ExitCode.hpp"

namespace ptxmm::app {

struct ExitTally {
  std::array<int, 5> counts{};  // indexed by the ExitCode value

  /// Counts one test that ended with `code`.
  void add(ExitCode code) { ++counts[static_cast<int>(code)]; }

  /// How many tests were counted.
  int total() const { return counts[0] + counts[1] + counts[2] + counts[3] + counts[4]; }

  /// "Summary: 4 tests: 2 Ok, 1 No, 1 Unknown, 0 Error": `ok` and `failed` name the first two outcomes in the
  /// command's words; user and internal errors count together.
  std::string summary(const std::string& ok, const std::string& failed) const {
    auto part = [](int n, const std::string& word) { return std::to_string(n) + " " + word; };
    const int errors = counts[static_cast<int>(ExitCode::UserError)] + counts[static_cast<int>(ExitCode::InternalError)];
    return "Summary: " + std::to_string(total()) + " tests: " + part(counts[0], ok) + ", " + part(counts[1], failed) +
           ", " + part(counts[static_cast<int>(ExitCode::Unknown)], "Unknown") + ", " + part(errors, "Error");
  }
};

}  // namespace ptxmm::app
