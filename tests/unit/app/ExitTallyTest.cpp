// The summary line `run` and `races` print after a batch of tests: every exit code is counted once, user and
// internal errors together.
#include <catch2/catch.hpp>

#include "app/ExitTally.hpp"

using namespace ptxmm::app;

TEST_CASE("a tally counts each test's exit code and says them in the command's words", "[app][files]") {
  ExitTally tally;
  CHECK(tally.total() == 0);
  for (ExitCode c : {ExitCode::Ok, ExitCode::Ok, ExitCode::ExpectationFailed, ExitCode::Unknown, ExitCode::UserError,
                     ExitCode::InternalError})
    tally.add(c);
  CHECK(tally.total() == 6);
  CHECK(tally.summary("race-free", "with races") ==
        "Summary: 6 tests: 2 race-free, 1 with races, 1 Unknown, 2 Error");
}
