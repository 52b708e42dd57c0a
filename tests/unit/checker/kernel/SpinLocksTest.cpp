// Spin locks (SpinLocks.hpp) on hand-built launches: a CAS lock with the fences a lock needs protects a counter —
// no race, the counter's final value, the acquire loops end — all without an engine; without the fences the
// counter's accesses race (the hand-off's witness, as the engine finds on the whole launch). And the reduction
// does not over-claim: an unlock skipped on a path, a weak unlock, a .cta lock shared across CTAs are no locks;
// an access outside the critical section still races; an update that is not `x + c` is no counter increment.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"
#include "checker/kernel/PairOracle.hpp"
#include "checker/kernel/SpinLocks.hpp"

using namespace ptxmm;
using testing::TestLaunch;

namespace {

struct Lock {
  std::string cas = "atom.relaxed.gpu.cas r0, lock_0, 0, 1";
  std::string unlock = "atom.relaxed.gpu.exch r9, lock_0, 0";
  bool fences = true;
  std::string update = "add r2, r1, 1";
  std::vector<std::string> inside;  // extra instructions in the critical section, before the counter update
  std::vector<std::string> after;   // instructions after the unlock
};

// `blocks` blocks of `threads` threads, each taking the lock once and updating counter_0 in its critical section.
TestLaunch lockedCounter(int blocks, int threads, const Lock& lock) {
  return {{blocks, 1, 1}, {threads, 1, 1}, 1, {"lock_0 = 0", "counter_0 = 0"}, [lock](const frontend::KernelThread&) {
            std::vector<std::string> c{"SPIN:", lock.cas, "bne r0, 0, SPIN"};
            if (lock.fences) c.push_back("fence.sc.gpu");
            c.insert(c.end(), lock.inside.begin(), lock.inside.end());
            c.insert(c.end(), {"ld.weak r1, counter_0", lock.update, "st.weak counter_0, r2"});
            if (lock.fences) c.push_back("fence.sc.gpu");
            c.push_back(lock.unlock);
            c.insert(c.end(), lock.after.begin(), lock.after.end());
            return c;
          }};
}

checker::kernel::KernelResult check(const TestLaunch& l, const std::string& assertion = "") {
  checker::kernel::KernelOptions o;
  if (!assertion.empty()) o.asserts = {assertion};
  return testing::checkLaunch(l, o);
}

// The lock words the analysis recognises in a launch.
std::size_t locksIn(const TestLaunch& l) {
  const frontend::KernelProgram kp = testing::makeKernel(l);
  testing::Analyses a(kp);
  checker::kernel::PairOracle oracle(testing::ptxModel(), a.graph);
  checker::kernel::SpinLocks locks(testing::ptxModel(), a.graph, a.values,
                                   [&](int x, int y) -> const checker::kernel::PairVerdict& { return oracle.verdict(x, y); });
  return locks.locks().size();
}

}  // namespace

TEST_CASE("a fenced CAS lock orders its critical sections: no race, the counter sums, the loops end, no engine", "[checker][kernel][locks]") {
  const TestLaunch l = lockedCounter(2, 4, {});
  CHECK(locksIn(l) == 1);
  testing::checkDecidedWithoutEngine(check(l, "counter[0] == 8"));
}

TEST_CASE("the fenced lock agrees with the engine on the whole launch", "[checker][kernel][locks]") {
  CHECK_FALSE(testing::wholeLaunchRaces(lockedCounter(2, 1, {})));
}

TEST_CASE("a CAS lock without fences: the counter's accesses race (the hand-off's witness), as on the whole launch", "[checker][kernel][locks]") {
  Lock lock;
  lock.fences = false;
  const TestLaunch l = lockedCounter(2, 4, lock);
  CHECK(locksIn(l) == 1);
  const auto r = check(l);
  CHECK(testing::raceTexts(r).count("ld.weak r1, counter_0 / st.weak counter_0, r2: no synchronisation") == 1);
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);  // the witness is the hand-off's
  CHECK(testing::wholeLaunchRaces(lockedCounter(2, 1, lock)));
}

TEST_CASE("an unlock skipped on a path, a weak unlock, a .cta lock across CTAs: no lock, nothing decided by it", "[checker][kernel][locks]") {
  Lock skipped;
  skipped.inside = {"ld.weak r5, counter_0", "bne r5, 3, OUT"};
  skipped.after = {"OUT:"};
  CHECK(locksIn(lockedCounter(2, 2, skipped)) == 0);
  Lock weak;
  weak.unlock = "st.weak lock_0, 0";
  CHECK(locksIn(lockedCounter(2, 2, weak)) == 0);
  Lock cta;
  cta.cas = "atom.relaxed.cta.cas r0, lock_0, 0, 1";
  cta.unlock = "atom.relaxed.cta.exch r9, lock_0, 0";
  CHECK(locksIn(lockedCounter(2, 2, cta)) == 0);
  CHECK(locksIn(lockedCounter(1, 2, cta)) == 1);  // one CTA: the .cta lock is a lock
}

TEST_CASE("an access outside the critical section still races with the ones inside", "[checker][kernel][locks]") {
  Lock lock;
  lock.after = {"ld.weak r7, counter_0"};
  const auto r = check(lockedCounter(2, 1, lock), "counter[0] == 2");
  CHECK(testing::raceTexts(r).count("ld.weak r7, counter_0 / st.weak counter_0, r2: no synchronisation") == 1);
  CHECK(r.assertions.at(0).holds == true);  // the read does not change the final value: a slice says so
  CHECK(r.notes.at(0).find("0 slices run") == std::string::npos);  // not a counter of the lock: no sum from it
}

TEST_CASE("an update other than x + c is no counter increment: the lock orders it, the sum rule does not apply", "[checker][kernel][locks]") {
  Lock lock;
  lock.update = "mul r2, r1, 2";
  const auto r = check(lockedCounter(2, 1, lock), "counter[0] == 0");
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  CHECK(r.notes.at(0).find("0 slices run") == std::string::npos);  // decided by a slice, not by the sum rule
}
