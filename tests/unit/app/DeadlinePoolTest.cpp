// The deadline pool behind `suite`'s --timeout backstop (issue 16: a suite test overran --timeout while Z3 freed
// its formula): a job past its deadline is reported by `overrun` while it still runs, the others are committed,
// and the caller is told that a thread was left behind. The stuck job waits for a release the test gives only
// after runWithDeadlines returned, so it cannot finish in time on any machine.
#include <catch2/catch.hpp>

#include <algorithm>
#include <future>
#include <memory>
#include <vector>

#include "app/DeadlinePool.hpp"

using namespace ptxmm::app;

TEST_CASE("a job past its deadline is given up and reported while the others are committed", "[app][suite]") {
  // Shared and captured by value: the given-up thread still uses them after this test has returned.
  std::promise<void> release;
  auto stuckDone = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release.get_future().share();
  auto done = stuckDone->get_future();
  std::vector<std::size_t> committed, overran;
  bool stuckCommitted = false;
  const bool abandoned = runWithDeadlines(
      4, 2, 0.05,
      [&committed, &stuckCommitted, released, stuckDone](std::size_t i) -> JobCommit {
        if (i == 1) {
          released.wait();
          stuckDone->set_value();
          return [&] { stuckCommitted = true; };
        }
        return [&committed, i] { committed.push_back(i); };
      },
      [&](std::size_t i) { overran.push_back(i); });
  CHECK(abandoned);
  CHECK(overran == std::vector<std::size_t>{1});
  std::sort(committed.begin(), committed.end());
  CHECK(committed == std::vector<std::size_t>{0, 2, 3});
  release.set_value();
  done.wait();
  CHECK_FALSE(stuckCommitted);  // read after it finished: what it computed is thrown away (not a data race: the
                                // commit is never called, so nothing writes the flag)
}

TEST_CASE("without a deadline every job is committed and nothing is left behind", "[app][suite]") {
  std::vector<std::size_t> committed;
  const bool abandoned = runWithDeadlines(
      5, 3, 0, [&](std::size_t i) -> JobCommit { return [&committed, i] { committed.push_back(i); }; },
      [](std::size_t) { FAIL("no deadline: nothing overruns"); });
  CHECK_FALSE(abandoned);
  std::sort(committed.begin(), committed.end());
  CHECK(committed == std::vector<std::size_t>{0, 1, 2, 3, 4});
}
