// The process exit codes of every ptxmm command: the one table (the README repeats it). Only the executable
// (app/) turns results into exit codes; the libraries below return results as values.
#pragma once

namespace ptxmm::app {

enum class ExitCode : int {
  Ok = 0,             // the run completed and every checked expectation held
  ExpectationFailed = 1,  // a condition verdict, an expectations file or a hardware run disagreed
  UserError = 2,      // bad input or bad options
  Unknown = 3,        // a bound or a timeout was hit: the verdict is UNKNOWN
  InternalError = 4,  // a bug in ptxmm
};

/// The code to exit with when several results are combined: the most severe wins
/// (internal error > user error > unknown > expectation failed > ok).
inline ExitCode worst(ExitCode a, ExitCode b) {
  auto rank = [](ExitCode c) {
    switch (c) {
      case ExitCode::Ok: return 0;
      case ExitCode::ExpectationFailed: return 1;
      case ExitCode::Unknown: return 2;
      case ExitCode::UserError: return 3;
      case ExitCode::InternalError: return 4;
    }
    return 4;
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace ptxmm::app
