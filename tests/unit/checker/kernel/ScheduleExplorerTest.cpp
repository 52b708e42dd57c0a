// Sequentially consistent schedules of whole launches (ScheduleExplorer.hpp): on launches small enough for the
// engine, every final memory a schedule reaches is a final state the engine permits on the whole launch; at 64
// threads, beyond the slice bound, a lost update, a barrier-less warp tail and an mbarrier arrival before its store
// fail their claims with a schedule's witness; a claim that holds is never reported failing; what the argument does not cover is declined.
// A schedule that gets stuck with a thread asleep in a spin is a hang witness: a lock one holder never releases
// spins for ever (the engine's fair liveness on the whole launch agrees), a released lock and a poll that changes
// memory while it waits never do.
#include <catch2/catch.hpp>

#include <set>

#include "KernelTestSupport.hpp"
#include "checker/kernel/ScheduleExplorer.hpp"

using namespace ptxmm;
using checker::kernel::ScheduleExplorer;
using testing::idx;
using testing::TestLaunch;

namespace {

// `threads` threads each add 1 to counter_0: with a plain load/add/store (an update can be lost) or an atom.add.
TestLaunch increments(int threads, bool atomic) {
  return {{1, 1, 1}, {threads, 1, 1}, 1, {"counter_0 = 0"}, [atomic](const frontend::KernelThread&) -> std::vector<std::string> {
            if (atomic) return {"atom.relaxed.gpu.add r0, counter_0, 1"};
            return {"ld.weak r1, counter_0", "add r2, r1, 1", "st.weak counter_0, r2"};
          }};
}

// Thread 0 publishes data_0 = 7 through flag_0 (release/acquire, or relaxed); the others spin on the flag, then add
// what they read of data_0 into sum_0 atomically. Thread 0 is the last to run in a descending schedule and the
// first in an ascending one, where the others' spins must sleep until it writes.
TestLaunch handOff(int threads, bool strong) {
  return {{1, 1, 1}, {threads, 1, 1}, 1, {"data_0 = 0", "flag_0 = 0", "sum_0 = 0"},
          [strong](const frontend::KernelThread& k) -> std::vector<std::string> {
            if (k.tid.x == 0) return {"st.weak data_0, 7", strong ? "st.release.gpu flag_0, 1" : "st.relaxed.gpu flag_0, 1"};
            return {"SPIN:", strong ? "ld.acquire.gpu r1, flag_0" : "ld.relaxed.gpu r1, flag_0", "beq r1, 0, SPIN",
                    "ld.weak r2, data_0", "atom.relaxed.gpu.add r3, sum_0, r2"};
          }};
}

// A warp-synchronous tail without a barrier: after one bar.sync, threads t < half add s[t + d] into s[t] for
// d = half, half/2, ..., 1 with volatile accesses (morally strong, so race-free; nothing orders the steps).
TestLaunch warpTail(int threads) {
  TestLaunch l{{1, 1, 1}, {threads, 1, 1}, 1, {"out_0 = 0"}, {}};
  for (int i = 0; i < threads; ++i) l.init.push_back(idx("s", i) + " @ shared cta 0 = 0");
  l.code = [threads](const frontend::KernelThread& k) {
    const int t = k.tid.x;
    std::vector<std::string> c{"st.volatile.shared " + idx("s", t) + ", 1", "bar.sync 0"};
    if (t < threads / 2)
      for (int d = threads / 2; d > 0; d /= 2) {
        c.push_back("ld.volatile.shared r1, " + idx("s", t));
        c.push_back("ld.volatile.shared r2, " + idx("s", t + d));
        c.push_back("add r1, r1, r2");
        c.push_back("st.volatile.shared " + idx("s", t) + ", r1");
      }
    if (t == 0) c.insert(c.end(), {"ld.volatile.shared r3, s_0", "st.weak out_0, r3"});
    return c;
  };
  return l;
}

// Thread 0 initialises an mbarrier for the `threads - 1` others, which arrive (release) and then, too late, store
// data_1 = 1 (thread 1) — or store it first when `storeFirst`; thread 0 waits (acquire) and copies data_1 to res_0.
TestLaunch mbarrierHandOff(int threads, bool storeFirst) {
  return {{1, 1, 1}, {threads, 1, 1}, 1, {"bar_0 @ mbarrier cta 0", "data_1 = 0", "res_0 = 0"},
          [threads, storeFirst](const frontend::KernelThread& k) -> std::vector<std::string> {
            const int t = k.tid.x;
            if (t == 0)
              return {"mbarrier.init.shared::cta.b64 [bar_0], " + std::to_string(threads - 1), "bar.sync 0", "WAIT:",
                      "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 r1, [bar_0], 0", "beq r1, 0, WAIT",
                      "ld.weak r2, data_1", "st.weak res_0, r2"};
            std::vector<std::string> c{"bar.sync 0", "mbarrier.arrive.release.cta.shared::cta.b64 r0, [bar_0]"};
            if (t == 1) c.insert(storeFirst ? c.begin() + 1 : c.end(), "st.weak data_1, 1");
            return c;
          }};
}

// The physical location of a launch location.
int paddrOf(const checker::kernel::KernelGraph& g, const std::string& name) {
  const int p = g.graph().physicalOf(name);
  REQUIRE(p >= 0);
  return p;
}

// The final values of `name` the engine permits on the whole launch.
std::set<std::int64_t> engineValues(const TestLaunch& l, const std::string& name) {
  frontend::KernelProgram kp = testing::makeKernel(l);
  frontend::CondValue v;
  v.kind = frontend::CondValue::Kind::Location;
  v.name = name;
  kp.program.observed.push_back(v);
  checker::RunOptions o;
  o.liveness = false;
  const checker::TestResult r = checker::checkProgram(testing::ptxModel(), kp.program, o);
  REQUIRE(r.status == checker::Status::Ok);
  std::set<std::int64_t> out;
  for (const auto& s : r.states) out.insert(s.values.at(0));
  return out;
}

// The final values of `name` over the explorer's schedules that complete.
std::set<std::int64_t> scheduledValues(const TestLaunch& l, const std::string& name, std::size_t* completed = nullptr) {
  const frontend::KernelProgram kp = testing::makeKernel(l);
  const checker::kernel::KernelGraph g(kp, 2);
  const ScheduleExplorer x(g);
  INFO(x.unsupported());
  REQUIRE(x.unsupported().empty());
  std::set<std::int64_t> out;
  std::size_t done = 0;
  for (std::size_t s = 0; s < x.scheduleCount(); ++s)
    if (const auto run = x.run(s, {})) {
      ++done;
      out.insert(run->memory.at(static_cast<std::size_t>(paddrOf(g, name))));
    }
  if (completed) *completed = done;
  return out;
}

void checkInsideEngine(const TestLaunch& l, const std::string& name) {
  std::size_t completed = 0;
  const auto scheduled = scheduledValues(l, name, &completed);
  CHECK(completed > 0);
  const auto permitted = engineValues(l, name);
  for (std::int64_t v : scheduled) {
    INFO(name << " = " << v);
    CHECK(permitted.count(v) == 1);
  }
}

}  // namespace

TEST_CASE("every final memory a schedule reaches is a final state the engine permits on the whole launch", "[checker][kernel][schedules]") {
  checkInsideEngine(increments(3, false), "counter_0");
  checkInsideEngine(increments(3, true), "counter_0");
  checkInsideEngine(handOff(3, false), "sum_0");
  checkInsideEngine(handOff(3, true), "sum_0");
  checkInsideEngine(warpTail(4), "out_0");
  checkInsideEngine(mbarrierHandOff(3, false), "res_0");
  checkInsideEngine(mbarrierHandOff(3, true), "res_0");
  // The lost update is among them: the schedules find more than the sequential value.
  CHECK(scheduledValues(increments(3, false), "counter_0").size() > 1);
}

TEST_CASE("beyond the slice bound a lost update and a barrier-less warp tail fail, with a schedule's witness", "[checker][kernel][schedules]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"counter[0] == 64"};
  auto r = testing::checkLaunch(increments(64, false), o);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == false);
  CHECK(r.assertions[0].counterexample.find("counter[0]=") == 0);
  CHECK(std::any_of(r.notes.begin(), r.notes.end(),
                    [](const std::string& n) { return n.find("sequentially consistent schedule") != std::string::npos; }));
  o.asserts = {"out[0] == 64"};
  r = testing::checkLaunch(warpTail(64), o);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == false);
  // An mbarrier arrival before the store it should publish: the waiter can copy the old value.
  CHECK(scheduledValues(mbarrierHandOff(64, false), "res_0").count(0) == 1);
}

TEST_CASE("a claim that holds is never reported failing by a schedule", "[checker][kernel][schedules]") {
  // Atomic increments and a release/acquire hand-off hold in every execution: every schedule agrees, at 64 threads.
  CHECK(scheduledValues(increments(64, true), "counter_0") == std::set<std::int64_t>{64});
  CHECK(scheduledValues(handOff(64, true), "sum_0") == std::set<std::int64_t>{63 * 7});
  CHECK(scheduledValues(mbarrierHandOff(64, true), "res_0") == std::set<std::int64_t>{1});
}

TEST_CASE("through the checker, a claim that holds beyond the slice bound is not reported failing", "[checker][kernel][schedules][slow]") {
  // The stale reads that break it are tried and the model refuses them on replay (a few seconds at 64 threads).
  checker::kernel::KernelOptions o;
  o.asserts = {"sum[0] == 441"};
  const auto r = testing::checkLaunch(handOff(64, true), o);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds != false);
}

TEST_CASE("a test-and-set spin that writes back what it reads sleeps: every schedule completes", "[checker][kernel][schedules]") {
  // lock_0 starts held by thread 1, which releases it after storing data_0; the others spin with atom.exch 1 (which
  // writes 1 over 1 while the lock is held) and then copy data_0. A spinner that ran first and never slept would
  // keep a schedule from reaching thread 1 until the step bound dropped it.
  TestLaunch l{{1, 1, 1}, {8, 1, 1}, 1, {"lock_0 = 1", "data_0 = 0", "sum_0 = 0"}, [](const frontend::KernelThread& k) -> std::vector<std::string> {
                 if (k.tid.x == 1) return {"st.weak data_0, 5", "fence.sc.gpu", "atom.relaxed.gpu.exch r9, lock_0, 0"};
                 return {"SPIN:", "atom.relaxed.gpu.exch r1, lock_0, 1", "bne r1, 0, SPIN", "fence.sc.gpu", "ld.weak r2, data_0",
                         "atom.relaxed.gpu.add r3, sum_0, r2", "atom.relaxed.gpu.exch r9, lock_0, 0"};
               }};
  std::size_t completed = 0;
  CHECK(scheduledValues(l, "sum_0", &completed) == std::set<std::int64_t>{35});
  const frontend::KernelProgram kp = testing::makeKernel(l);
  const checker::kernel::KernelGraph g(kp, 2);
  CHECK(completed == ScheduleExplorer(g).scheduleCount());
}

TEST_CASE("what sequentially consistent schedules do not cover is declined", "[checker][kernel][schedules]") {
  TestLaunch l{{1, 1, 1}, {2, 1, 1}, 1, {"out_0 = 0"}, [](const frontend::KernelThread&) -> std::vector<std::string> {
                 return {"st.weak out_0, 1", "fence.proxy.async"};
               }};
  const frontend::KernelProgram kp = testing::makeKernel(l);
  const checker::kernel::KernelGraph g(kp, 2);
  const ScheduleExplorer x(g);
  CHECK(x.unsupported().find("fence.proxy.async") != std::string::npos);
  CHECK_FALSE(x.find([](const std::vector<std::int64_t>&) { return true; }, {}));
}

namespace {

// Each of `threads` threads takes lock_0 with a CAS loop, adds 1 to count_0 and releases the lock — all but
// thread 1 when `oneKeeps` (it keeps the lock: whoever comes after it spins for ever).
TestLaunch casLock(int threads, bool oneKeeps) {
  return {{1, 1, 1}, {threads, 1, 1}, 1, {"lock_0 = 0", "count_0 = 0"}, [oneKeeps](const frontend::KernelThread& k) -> std::vector<std::string> {
            std::vector<std::string> c{"SPIN:", "atom.relaxed.gpu.cas r1, lock_0, 0, 1", "bne r1, 0, SPIN", "fence.sc.gpu",
                                       "atom.relaxed.gpu.add r2, count_0, 1", "fence.sc.gpu"};
            if (!(oneKeeps && k.tid.x == 1)) c.push_back("atom.relaxed.gpu.exch r3, lock_0, 0");
            return c;
          }};
}

std::map<std::pair<int, int>, std::string> spins(const TestLaunch& l) {
  const frontend::KernelProgram kp = testing::makeKernel(l);
  const checker::kernel::KernelGraph g(kp, 2);
  return ScheduleExplorer(g).spinsForever({});
}

}  // namespace

TEST_CASE("a schedule stuck with a thread asleep in its spin shows a loop that never ends", "[checker][kernel][schedules][liveness]") {
  const auto kept = spins(casLock(2, true));
  // Thread 1 takes the lock first in the descending schedule and keeps it: thread 0 spins for ever.
  REQUIRE(kept.count({0, 0}) == 1);
  CHECK(kept.count({1, 0}) == 0);  // thread 1's loop ends in every schedule that gets stuck
  // The engine's fair liveness on the whole launch agrees that the launch can hang.
  checker::RunOptions o;
  o.liveness = true;
  const checker::TestResult whole = checker::checkProgram(testing::ptxModel(), testing::makeKernel(casLock(2, true)).program, o);
  REQUIRE(whole.status == checker::Status::Ok);
  REQUIRE(whole.liveness);
  REQUIRE(whole.liveness->decided);
  CHECK_FALSE(whole.liveness->terminates);
  // Through the checker: a hang at the loop, nothing left undecided.
  const auto r = testing::checkLaunch(casLock(4, true));
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.hangs.size() == 1);
  CHECK(r.unknowns.empty());
}

TEST_CASE("a released lock and a poll that changes memory while it waits are never shown to spin for ever", "[checker][kernel][schedules][liveness]") {
  CHECK(spins(casLock(4, false)).empty());
  // Thread 1 polls flag_0 with atom.add 1 (each poll changes memory: it never sleeps) until thread 0 sets it.
  const TestLaunch poll{{1, 1, 1}, {2, 1, 1}, 1, {"flag_0 = 0"}, [](const frontend::KernelThread& k) -> std::vector<std::string> {
                          if (k.tid.x == 0) return {"atom.relaxed.gpu.exch r0, flag_0, 1000"};
                          return {"SPIN:", "atom.relaxed.gpu.add r0, flag_0, 1", "blt r0, 1000, SPIN"};
                        }};
  CHECK(spins(poll).empty());
}
