// Barrier generations (BarrierRules.hpp): participation and exit release, counting, quorums, Dat3M's labels,
// blocked waits, and the divergent-release finding for aligned barriers.
#include <catch2/catch.hpp>

#include "checker/BarrierMatching.hpp"

using namespace ptxmm::checker;

namespace {

const ptxmm::model::EventGraph kGraph;  // threadsAreWarps: a litmus thread is a warp, an arrival counts 32 threads

BarrierClass cls(BarrierKind kind = BarrierKind::All, std::optional<std::int64_t> label = std::nullopt) {
  return {0, label, kind};
}

// bar.sync by thread t: arrive half at 2t, wait half at 2t+1.
Arrival sync(int thread, std::int64_t id, BarrierKind kind = BarrierKind::All, std::optional<std::int64_t> size = std::nullopt) {
  return {static_cast<std::size_t>(2 * thread), static_cast<std::size_t>(2 * thread + 1), false, thread, cls(kind), id, size, true};
}

std::vector<BarrierMatching> matchings(const std::vector<Arrival>& arrivals, std::size_t n, int threads,
                                       const std::vector<StaticUse>& uses = {}, std::vector<bool> exited = {}) {
  if (exited.empty()) exited.assign(static_cast<std::size_t>(threads), true);
  return barrierMatchings(arrivals, BarrierContext{exited, &uses, &kGraph}, n);
}

}  // namespace

TEST_CASE("two threads at the same barrier synchronise both ways", "[checker][barrier]") {
  const auto m = matchings({sync(0, 1), sync(1, 1)}, 4, 2);
  REQUIRE(m.size() == 1);
  CHECK(m[0].syncbar.test(0, 3));
  CHECK(m[0].syncbar.test(2, 1));
  CHECK(m[0].syncbar.count() == 2);
  CHECK(m[0].divergent.empty());
}

TEST_CASE("different ids, counts or Dat3M labels are different barriers", "[checker][barrier]") {
  CHECK(matchings({sync(0, 0), sync(1, 1)}, 4, 2)[0].syncbar.none());
  CHECK(matchings({sync(0, 1, BarrierKind::Counted, 32), sync(1, 1, BarrierKind::Counted, 64)}, 4, 2).empty());
  Arrival labelled = sync(1, 1);
  labelled.cls = cls(BarrierKind::All, 7);
  CHECK(matchings({sync(0, 1), labelled}, 4, 2)[0].syncbar.none());
}

TEST_CASE("a thread count in warps forms generations of that many warps", "[checker][barrier]") {
  // Three warps at `bar.sync 1, 64`: two complete a generation, the third waits forever: no execution.
  CHECK(matchings({sync(0, 1, BarrierKind::Counted, 64), sync(1, 1, BarrierKind::Counted, 64),
                   sync(2, 1, BarrierKind::Counted, 64)}, 6, 3).empty());
  // Four warps: every split into two pairs is possible.
  CHECK(matchings({sync(0, 1, BarrierKind::Counted, 64), sync(1, 1, BarrierKind::Counted, 64),
                   sync(2, 1, BarrierKind::Counted, 64), sync(3, 1, BarrierKind::Counted, 64)}, 8, 4).size() == 3);
  // A count that is not a multiple of 32 threads never completes.
  CHECK(matchings({sync(0, 1, BarrierKind::Counted, 48)}, 2, 1).empty());
}

TEST_CASE("an arrive-only leftover is fine, a waiting one is not, a blocked one is", "[checker][barrier]") {
  Arrival arrive{0, std::nullopt, false, 0, cls(BarrierKind::Counted), 1, 64, true};
  CHECK(matchings({arrive}, 1, 1).size() == 1);
  CHECK(matchings({sync(0, 1, BarrierKind::Counted, 64)}, 2, 1).empty());
  Arrival blocked = sync(0, 1, BarrierKind::Counted, 64);
  blocked.wait.reset();
  blocked.blocked = true;
  CHECK(matchings({blocked}, 2, 1).size() == 1);
}

TEST_CASE("a user that exits releases a barrier for all threads; at an aligned one that is divergence", "[checker][barrier]") {
  // P0 arrives twice at barrier 0, P1 once and exits: the second generation completes through P1's exit.
  Arrival second = sync(0, 0);
  second.arrive = 4;
  second.wait = 5;
  auto m = matchings({sync(0, 0), second, sync(1, 0)}, 6, 2);
  REQUIRE(m.size() == 1);
  REQUIRE(m[0].divergent.size() == 1);
  CHECK(m[0].divergent[0].thread == 1);
  for (Arrival* a : {&second}) a->aligned = false;
  Arrival first = sync(0, 0), other = sync(1, 0);
  first.aligned = other.aligned = false;
  CHECK(matchings({first, second, other}, 6, 2)[0].divergent.empty());
  // A static user that never arrives and is still running holds the generation: no complete execution.
  const std::vector<StaticUse> uses{{1, cls(), 0, std::nullopt, true}};
  CHECK(matchings({sync(0, 0)}, 2, 2, uses, {true, false}).empty());
  CHECK(matchings({sync(0, 0)}, 2, 2, uses, {true, true})[0].divergent.size() == 1);
}

TEST_CASE("a Dat3M quorum completes with Q arrivals, and any Q or more synchronise", "[checker][barrier]") {
  auto quorum = [](int thread, std::int64_t q) { return sync(thread, 0, BarrierKind::Quorum, q); };
  // Q = 2 of two arrivals: both synchronise.
  auto two = matchings({quorum(0, 2), quorum(1, 2)}, 4, 2);
  REQUIRE(two.size() == 1);
  CHECK(two[0].syncbar.count() == 2);
  // Q = 1: each may pass alone (no edge) or with the other.
  auto one = matchings({quorum(0, 1), quorum(1, 1)}, 4, 2);
  CHECK(one.size() == 2);
  // Q = 3 with two arrivals: the waits never complete.
  CHECK(matchings({quorum(0, 3), quorum(1, 3)}, 4, 2).empty());
}

TEST_CASE("kernel threads count one thread each", "[checker][barrier]") {
  ptxmm::model::EventGraph kernelGraph;
  kernelGraph.threadsAreWarps = false;
  const std::vector<StaticUse> uses;
  auto counted = [](int thread) { return sync(thread, 1, BarrierKind::Counted, 2); };
  auto kernelMatchings = [&](const std::vector<Arrival>& arrivals) {
    return barrierMatchings(arrivals, BarrierContext{std::vector<bool>(arrivals.size(), true), &uses, &kernelGraph},
                            2 * arrivals.size());
  };
  // `bar.sync 1, 2` among three kernel threads: any two complete a generation, the third waits forever.
  CHECK(kernelMatchings({counted(0), counted(1), counted(2)}).empty());
  // Four threads: every split into two pairs.
  CHECK(kernelMatchings({counted(0), counted(1), counted(2), counted(3)}).size() == 3);
  // The same count read as warps (litmus threads): 2 threads is not a multiple of a warp: it never completes.
  CHECK(matchings({counted(0), counted(1), counted(2), counted(3)}, 8, 4).empty());
}
