// Barrier generations: participation, counting, deadlocks and the corpus's labelling counts.
#include <catch2/catch.hpp>

#include "checker/BarrierMatching.hpp"

using namespace ptxmm::checker;

namespace {
// bar.sync by thread t: arrive half at 2t, wait half at 2t+1.
Arrival sync(int thread, std::int64_t id, std::optional<std::int64_t> count = std::nullopt) {
  return {static_cast<std::size_t>(2 * thread), static_cast<std::size_t>(2 * thread + 1), thread, 0, id, count};
}
}  // namespace

TEST_CASE("two threads at the same barrier synchronise both ways", "[checker][barrier]") {
  const auto m = barrierMatchings({sync(0, 1), sync(1, 1)}, 4);
  REQUIRE(m.size() == 1);
  REQUIRE(m[0].test(0, 3));
  REQUIRE(m[0].test(2, 1));
  REQUIRE(m[0].count() == 2);
}

TEST_CASE("different ids or counts are different barriers", "[checker][barrier]") {
  REQUIRE(barrierMatchings({sync(0, 0), sync(1, 1)}, 4)[0].none());
  REQUIRE(barrierMatchings({sync(0, 1, 1), sync(1, 1, 2)}, 4)[0].none());
}

TEST_CASE("a thread count in warps forms generations of that many warps", "[checker][barrier]") {
  // Three warps at `bar.sync 1, 64`: two complete a generation, the third waits forever: no execution.
  REQUIRE(barrierMatchings({sync(0, 1, 64), sync(1, 1, 64), sync(2, 1, 64)}, 6).empty());
  // Four warps: every split into two pairs is possible.
  REQUIRE(barrierMatchings({sync(0, 1, 64), sync(1, 1, 64), sync(2, 1, 64), sync(3, 1, 64)}, 8).size() == 6);
}

TEST_CASE("an arrive-only leftover is fine, a waiting one is not", "[checker][barrier]") {
  Arrival arrive{0, std::nullopt, 0, 0, 1, 64};
  REQUIRE(barrierMatchings({arrive}, 1).size() == 1);
  REQUIRE(barrierMatchings({sync(0, 1, 64)}, 2).empty());
}

TEST_CASE("both engines' barrier rules: grouping by domain, id and count, and counted generation sizes",
          "[checker][barrier]") {
  CHECK(countedGenerationSize({0, 1, 64}) == std::optional<std::size_t>(2));
  CHECK(countedGenerationSize({0, 1, 32}) == std::optional<std::size_t>(1));
  CHECK_FALSE(countedGenerationSize({0, 1, std::nullopt}));  // all threads of the CTA: by participation
  CHECK_FALSE(countedGenerationSize({0, 1, 2}));             // the corpus's labelling counts
  CHECK_FALSE(countedGenerationSize({0, 1, 48}));
  CHECK_FALSE(countedGenerationSize({0, 1, 0}));
  const std::vector<Arrival> arrivals{sync(0, 1), sync(1, 2), sync(2, 1), sync(3, 1, 64)};
  const auto groups = byBarrier(arrivals);
  REQUIRE(groups.size() == 3);
  CHECK(groups.at({0, 1, std::nullopt}) == std::vector<const Arrival*>{&arrivals[0], &arrivals[2]});
  CHECK(groups.at({0, 2, std::nullopt}) == std::vector<const Arrival*>{&arrivals[1]});
  CHECK(groups.at({0, 1, 64}) == std::vector<const Arrival*>{&arrivals[3]});
  CHECK(countedGenerationSize({0, 1, 2}, 1) == std::optional<std::size_t>(2));  // kernel threads count themselves
}

TEST_CASE("kernel threads count one thread each", "[checker][barrier]") {
  // `bar.sync 1, 2` among three kernel threads: any two complete a generation, the third waits forever.
  REQUIRE(barrierMatchings({sync(0, 1, 2), sync(1, 1, 2), sync(2, 1, 2)}, 6, 1).empty());
  // Four threads: every split into two pairs.
  REQUIRE(barrierMatchings({sync(0, 1, 2), sync(1, 1, 2), sync(2, 1, 2), sync(3, 1, 2)}, 8, 1).size() == 6);
  // The same count read as warps (litmus threads): 2 is not a multiple of 32, so it only labels the barrier
  // and all four arrivals form one generation.
  REQUIRE(barrierMatchings({sync(0, 1, 2), sync(1, 1, 2), sync(2, 1, 2), sync(3, 1, 2)}, 8).size() == 1);
}
