// The kernel checker end to end on hand-built launches: races, claims, hangs, and how pairs are decided.
#include <catch2/catch.hpp>

#include <tuple>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using checker::kernel::KernelStatus;
using testing::TestLaunch;

namespace {

using testing::checkDecidedWithoutEngine;
using testing::idx;

// An 8-thread tree reduction of s into out_0 (values 1..8), with or without the barrier after the first store.
TestLaunch reduction(bool firstBarrier) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {8, 1, 1};
  for (int i = 0; i < 8; ++i) l.init.push_back(idx("s", i) + " @ shared cta 0 = 0");
  l.init.push_back("out_0 = 0");
  l.code = [firstBarrier](const frontend::KernelThread& k) {
    const int t = k.tid.x;
    std::vector<std::string> c{"st.shared " + idx("s", t) + ", " + std::to_string(t + 1)};
    if (firstBarrier) c.push_back("bar.sync 0");
    for (int stride = 4; stride > 0; stride /= 2) {
      if (t < stride) {
        c.push_back("ld.shared r1, " + idx("s", t));
        c.push_back("ld.shared r2, " + idx("s", t + stride));
        c.push_back("add r1, r1, r2");
        c.push_back("st.shared " + idx("s", t) + ", r1");
      }
      c.push_back("bar.sync 0");
    }
    if (t == 0) {
      c.push_back("ld.shared r3, s_0");
      c.push_back("st.weak out_0, r3");
    }
    return c;
  };
  return l;
}

}  // namespace

TEST_CASE("a barrier-synchronised reduction is race-free and its sum is forced without an engine", "[checker][kernel]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 36"};
  o.observes = {"out[0]"};
  const KernelResult r = testing::checkLaunch(reduction(true), o);
  CHECK(r.races.empty());
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  REQUIRE(r.observed.size() == 1);
  CHECK(r.observed[0].values == std::vector<std::string>{"36"});
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
}

TEST_CASE("a reduction missing its first barrier races where a step reads another thread's slot", "[checker][kernel]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 36"};
  const KernelResult r = testing::checkLaunch(reduction(false), o);
  CHECK(testing::raceTexts(r) == std::set<std::string>{"ld.shared r2, s_4 / st.shared s_4, 5: no synchronisation"});
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == false);
}

TEST_CASE("a flag hand-off across blocks: release/acquire is race-free, relaxed races (decided on slices)", "[checker][kernel]") {
  for (const bool strong : {true, false}) {
    TestLaunch l;
    l.grid = {2, 1, 1};
    l.block = {1, 1, 1};
    l.init = {"data_0 = 0", "flag_0 = 0"};
    l.code = [strong](const frontend::KernelThread& k) -> std::vector<std::string> {
      if (k.cta == 0) return {"st.weak data_0, 42", strong ? "st.release.gpu flag_0, 1" : "st.relaxed.gpu flag_0, 1"};
      return {strong ? "ld.acquire.gpu r0, flag_0" : "ld.relaxed.gpu r0, flag_0", "beq r0, 0, END", "ld.weak r1, data_0",
              "END:"};
    };
    checker::kernel::KernelOptions o;
    o.observes = {"data[0]"};
    const KernelResult r = testing::checkLaunch(l, o);
    CHECK(r.unknowns.empty());
    if (strong) {
      CHECK(r.races.empty());
    } else {
      CHECK(testing::raceTexts(r) == std::set<std::string>{"ld.weak r1, data_0 / st.weak data_0, 42: no synchronisation"});
    }
    CHECK(r.notes.at(0).find("1 slices run") != std::string::npos);
  }
}

TEST_CASE("symmetric pairs share one engine run", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {4, 1, 1};
  for (int i = 0; i < 4; ++i) l.init.push_back(idx("data", i) + " = 0"), l.init.push_back(idx("flag", i) + " = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    if (k.cta == 0) return {"st.weak " + idx("data", t) + ", 42", "st.release.gpu " + idx("flag", t) + ", 1"};
    return {"ld.acquire.gpu r0, " + idx("flag", t), "beq r0, 0, END", "ld.weak r1, " + idx("data", t), "END:"};
  };
  const KernelResult r = testing::checkLaunch(l);
  CHECK(r.races.empty());
  CHECK(r.notes.at(0).find("1 slices run, 3 answered by a symmetric slice") != std::string::npos);
}

TEST_CASE("weak read-modify-writes of one bin race in every execution: decided by the may-order graph", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {4, 1, 1};
  l.init = {"bins_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r0, bins_0", "add r0, r0, 1", "st.weak bins_0, r0"};
  };
  const KernelResult r = testing::checkLaunch(l);
  CHECK(testing::raceTexts(r) == std::set<std::string>{"ld.weak r0, bins_0 / st.weak bins_0, r0: no synchronisation",
                                                       "st.weak bins_0, r0 / st.weak bins_0, r0: no synchronisation"});
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
}

TEST_CASE("accesses between the same two barrier generations race: the may-order graph keeps generations apart", "[checker][kernel]") {
  // A later generation's arrival cannot release an earlier generation's wait: with one hub for every generation,
  // thread 1's store would reach thread 0's load (store -> arrive of generation 1 -> wait of generation 0 -> load)
  // and the pair would need an engine run.
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"x_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.tid.x == 0) return {"bar.sync 0", "ld.weak r0, x_0", "bar.sync 0"};
    return {"bar.sync 0", "st.weak x_0, 1", "bar.sync 0"};
  };
  const KernelResult r = testing::checkLaunch(l);
  CHECK(testing::raceTexts(r) == std::set<std::string>{"ld.weak r0, x_0 / st.weak x_0, 1: no synchronisation"});
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
}

// Threads of 2 blocks x 2 add their input element to total_0 when it is not negative (inputs -1, 2, 5, 7).
TestLaunch conditionalSum(const std::string& scope) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"in_0 = -1", "in_1 = 2", "in_2 = 5", "in_3 = 7", "total_0 = 0"};
  l.code = [scope](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int g = k.cta * 2 + k.tid.x;
    return {"ld.weak r1, " + idx("in", g), "blt r1, 0, END", "atom.relaxed." + scope + ".add r0, total_0, r1", "END:"};
  };
  return l;
}

TEST_CASE("a sum of morally strong atomic adds is forced without an engine, also when inputs decide who adds", "[checker][kernel]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"total[0] == 14"};
  o.observes = {"total[0]"};
  const KernelResult r = testing::checkLaunch(conditionalSum("gpu"), o);
  CHECK(r.races.empty());
  CHECK(r.status == KernelStatus::Ok);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  REQUIRE(r.observed.size() == 1);
  CHECK(r.observed[0].values == std::vector<std::string>{"14"});
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
}

TEST_CASE("block-scope adds from two blocks are not all morally strong: their sum is not forced", "[checker][kernel]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"total[0] == 14"};
  o.observes = {"total[0]"};
  const KernelResult r = testing::checkLaunch(conditionalSum("cta"), o);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == false);
  REQUIRE(r.observed.size() == 1);
  CHECK(r.observed[0].values.size() > 1);
}

// Threads 0 and 1 write buf and arrive on an mbarrier initialised for 2 arrivals (release or relaxed), after
// `producerFence` when given; threads 2 and 3 spin on a try_wait of phase 0 (`waitSem`), then run `consumerFence`
// when given and copy the other producer's slot to out.
TestLaunch mbarrierHandOff(const std::string& arriveSem, const std::string& waitSem = "acquire",
                           const std::string& producerFence = "", const std::string& consumerFence = "") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {4, 1, 1};
  l.init = {"bar_0 @ mbarrier cta 0", "buf_0 @ shared cta 0 = 0", "buf_1 @ shared cta 0 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar_0], 2");
    c.push_back("bar.sync 0");
    if (t < 2) {
      c.push_back("st.shared.u32 [" + idx("buf", t) + "], " + std::to_string(10 + t));
      if (!producerFence.empty()) c.push_back(producerFence);
      c.push_back("mbarrier.arrive." + arriveSem + ".cta.shared::cta.b64 _, [bar_0]");
    } else {
      c.push_back("LW:");
      c.push_back("mbarrier.try_wait.parity." + waitSem + ".cta.shared::cta.b64 p, [bar_0], 0");
      c.push_back("@!p bra LW");
      if (!consumerFence.empty()) c.push_back(consumerFence);
      c.push_back("ld.shared.u32 r0, [" + idx("buf", 3 - t) + "]");
      c.push_back("st.u32 [" + idx("out", t - 2) + "], r0");
    }
    return c;
  };
  return l;
}

TEST_CASE("relaxed mbarrier arrivals order nothing: the hand-off races (the static rule must not apply)", "[checker][kernel][mbarrier]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 11 && out[1] == 10"};
  const KernelResult r = testing::checkLaunch(mbarrierHandOff("relaxed"), o);
  CHECK(!r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds != true);
}

TEST_CASE("an mbarrier hand-off with release arrivals, or relaxed ones behind a release fence, and acquire waits, or relaxed ones before an acquire fence, is ordered, its loops end and its values are forced without an engine", "[checker][kernel][mbarrier]") {
  for (const auto& [arrive, wait, before, after] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"release", "acquire", "", ""},                                      // rp1 ; obs ; ap4
           {"relaxed", "relaxed", "fence.release.cta", "fence.acquire.cta"},  // rp3 ; obs ; ap3
           {"relaxed", "relaxed", "fence.acq_rel.cta", "fence.sc.cta"},
           {"relaxed", "acquire", "fence.release.cta", ""},   // rp3 ; obs ; ap4
           {"release", "relaxed", "", "fence.acquire.cta"},  // rp1 ; obs ; ap3
           {"relaxed", "relaxed", "fence.release.sync_restrict::shared::cta.cluster",  // rel-restr ; obs ; acq-restr
            "fence.acquire.sync_restrict::shared::cluster.cluster"}}) {
    INFO(arrive << " " << wait << " [" << before << "] [" << after << "]");
    const TestLaunch l = mbarrierHandOff(arrive, wait, before, after);
    CHECK_FALSE(testing::wholeLaunchRaces(l));
    checker::kernel::KernelOptions o;
    o.asserts = {"out[0] == 11 && out[1] == 10"};
    const KernelResult r = testing::checkLaunch(l, o);
    checkDecidedWithoutEngine(r);
  }
}

TEST_CASE("an mbarrier hand-off missing one half of the fence idiom still races, decided without an engine", "[checker][kernel][mbarrier]") {
  for (const auto& [arrive, wait, before, after] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"relaxed", "relaxed", "fence.release.cta", ""},            // no acquire pattern
           {"relaxed", "relaxed", "", "fence.acquire.cta"},            // no release pattern
           {"relaxed", "acquire", "", ""},                             // no release pattern
           {"relaxed", "relaxed", "fence.acquire.cta", "fence.release.cta"}}) {  // fences of the wrong kinds
    INFO(arrive << " " << wait << " [" << before << "] [" << after << "]");
    const TestLaunch l = mbarrierHandOff(arrive, wait, before, after);
    CHECK(testing::wholeLaunchRaces(l));
    const KernelResult r = testing::checkLaunch(l, {});
    CHECK(r.races.size() == 2);  // each producer's slot against its reader
    CHECK(r.unknowns.empty());
    INFO(r.notes.at(0));
    CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
  }
}

TEST_CASE("restricted fences around relaxed mbarrier operations order only what they cover (rel-restr, acq-restr)", "[checker][kernel][mbarrier]") {
  // The hand-off of mbarrierHandOff, where each producer also writes a global slot g that its reader reads: the
  // sync_restrict::shared::cta release fence covers the shared store only, so the global pair races.
  TestLaunch l = mbarrierHandOff("relaxed", "relaxed", "fence.release.sync_restrict::shared::cta.cluster",
                                 "fence.acquire.sync_restrict::shared::cluster.cluster");
  const auto handOff = l.code;
  l.init.insert(l.init.end(), {"g_0 = 0", "g_1 = 0"});
  l.code = [handOff](const frontend::KernelThread& k) {
    std::vector<std::string> c = handOff(k);
    const int t = k.tid.x;
    if (t < 2) c.insert(c.begin() + 1 + (t == 0), "st.u32 [" + idx("g", t) + "], 1");
    else c.push_back("ld.u32 r2, [" + idx("g", 3 - t) + "]");
    return c;
  };
  CHECK(testing::wholeLaunchRaces(l));
  const KernelResult r = testing::checkLaunch(l, {});
  CHECK(testing::raceTexts(r) == std::set<std::string>{"ld.u32 r2, [g_0] / st.u32 [g_0], 1: no synchronisation",
                                                       "ld.u32 r2, [g_1] / st.u32 [g_1], 1: no synchronisation"});
  CHECK(r.unknowns.empty());  // the global pairs go to slices: the may-order graph counts any release fence as a head
}

TEST_CASE("split arrive/wait on an mbarrier with state tokens (cuda::barrier): every thread's slot is ordered before its neighbour's read", "[checker][kernel][mbarrier]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {4, 1, 1};
  l.init = {"bar_0 @ mbarrier cta 0", "out_0 = 0", "out_1 = 0", "out_2 = 0", "out_3 = 0"};
  for (int i = 0; i < 4; ++i) l.init.push_back(idx("buf", i) + " @ shared cta 0 = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar_0], 4");
    c.push_back("bar.sync 0");
    c.push_back("st.shared.u32 [" + idx("buf", t) + "], " + std::to_string(t * t));
    c.push_back("mbarrier.arrive.shared::cta.b64 r1, [bar_0]");
    c.push_back("LW:");
    c.push_back("mbarrier.try_wait.shared::cta.b64 p, [bar_0], r1");
    c.push_back("@!p bra LW");
    c.push_back("ld.shared.u32 r0, [" + idx("buf", (t + 1) % 4) + "]");
    c.push_back("st.u32 [" + idx("out", t) + "], r0");
    return c;
  };
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 1 && out[3] == 0 && out[2] == 9"};
  checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

// Block 0 thread 0 writes data, then every thread of the 2-block cluster runs `fence` (when given), arrives
// (release or relaxed) and waits at barrier.cluster; block 1 thread 0 copies data to out.
TestLaunch clusterHandOff(const std::string& arrive, const std::string& fence = "") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {2, 1, 1};
  l.clusterSize = 2;
  l.init = {"data_0 = 0", "out_0 = 0"};
  l.code = [arrive, fence](const frontend::KernelThread& k) -> std::vector<std::string> {
    std::vector<std::string> c;
    if (k.cta == 0 && k.tid.x == 0) c.push_back("st.weak data_0, 42");
    if (!fence.empty()) c.push_back(fence);
    c.push_back(arrive);
    c.push_back("barrier.cluster.wait.aligned");
    if (k.cta == 1 && k.tid.x == 0) c.insert(c.end(), {"ld.weak r0, data_0", "st.weak out_0, r0"});
    return c;
  };
  return l;
}

TEST_CASE("a release cluster barrier orders a hand-off between blocks without an engine; a relaxed one does not", "[checker][kernel][cluster]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 42"};
  const KernelResult r = testing::checkLaunch(clusterHandOff("barrier.cluster.arrive.aligned"), o);
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  INFO(r.notes.at(0));
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
  const KernelResult relaxed = testing::checkLaunch(clusterHandOff("barrier.cluster.arrive.relaxed.aligned"), o);
  CHECK(testing::raceTexts(relaxed) == std::set<std::string>{"ld.weak r0, data_0 / st.weak data_0, 42: no synchronisation"});
  REQUIRE(relaxed.assertions.size() == 1);
  CHECK(relaxed.assertions[0].holds == false);
}

TEST_CASE("a relaxed cluster arrival behind a release fence of cluster scope orders the hand-off (rp3); a narrower or restricted fence does not", "[checker][kernel][cluster]") {
  // {fence, whether the hand-off is ordered}
  for (const auto& [fence, ordered] : std::vector<std::pair<std::string, bool>>{{"fence.acq_rel.cluster", true},
                                                                               {"fence.release.cluster", true},
                                                                               {"fence.acq_rel.cta", false},
                                                                               {"fence.mbarrier_init.release.cluster", false}}) {
    INFO(fence);
    const TestLaunch l = clusterHandOff("barrier.cluster.arrive.relaxed.aligned", fence);
    CHECK(testing::wholeLaunchRaces(l) == !ordered);
    checker::kernel::KernelOptions o;
    o.asserts = {"out[0] == 42"};
    const KernelResult r = testing::checkLaunch(l, o);
    CHECK(r.races.empty() == ordered);
    CHECK(r.unknowns.empty());
    REQUIRE(r.assertions.size() == 1);
    CHECK(r.assertions[0].holds == ordered);
    if (ordered) CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
  }
}

TEST_CASE("block-scope atomics of different blocks are not morally strong: scope too narrow", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"hits_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> { return {"atom.relaxed.cta.add r0, hits_0, 1"}; };
  const KernelResult r = testing::checkLaunch(l);
  REQUIRE(r.races.size() == 1);
  CHECK(r.races[0].kind == "scope too narrow");
}

TEST_CASE("a counted barrier that fewer threads reach than its count hangs; nothing after it is checked", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {96, 1, 1};
  l.init = {"stage_0 @ shared cta 0 = 0", "out_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.warp == 0) return {k.lane == 0 ? "st.shared stage_0, 7" : "mov r0, 0", "bar.arrive 1, 128"};
    return {"bar.sync 1, 128", "ld.shared r0, stage_0"};
  };
  const KernelResult r = testing::checkLaunch(l);
  REQUIRE(r.hangs.size() == 1);
  CHECK(r.hangs[0].kind == "barrier never completes");
  CHECK(r.hangs[0].threads.find("block 0 threads 32..95 wait for barrier 1 with count 128, but only 96 threads") == 0);
  CHECK(r.races.empty());
}

TEST_CASE("an aligned barrier without a count that half the block skips is undefined behaviour", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  for (int i = 0; i < 64; ++i) l.init.push_back(idx("s", i) + " @ shared cta 0 = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c{"st.shared " + idx("s", t) + ", 1"};
    if (t < 32) c.insert(c.end(), {"bar.sync 0", "ld.shared r0, " + idx("s", t + 32)});
    return c;
  };
  const KernelResult r = testing::checkLaunch(l);
  REQUIRE(r.hangs.size() == 1);
  CHECK(r.hangs[0].kind.find("undefined behaviour") == 0);
  CHECK(r.hangs[0].threads.find("block 0 threads 32..63 never arrive") == 0);
  CHECK(r.races.empty());
}

TEST_CASE("claims name global buffers and elements inside them", "[checker][kernel]") {
  checker::kernel::KernelOptions o;
  o.asserts = {"out[1] == 0"};
  CHECK_THROWS_WITH(testing::checkLaunch(reduction(true), o), Catch::Contains("--assert:1:1: error: 'out' has 1 elements"));
  o.asserts = {"nope[0] == 0"};
  CHECK_THROWS_WITH(testing::checkLaunch(reduction(true), o), Catch::Contains("no global buffer 'nope'"));
  o.asserts = {"out[0] = 0"};
  CHECK_THROWS_WITH(testing::checkLaunch(reduction(true), o), Catch::Contains("--assert:1:8: error: expected a comparison"));
}

TEST_CASE("a pair left undecided in a group that already has its race does not make the launch unknown", "[checker][kernel]") {
  // Thread 0 stores x_0 (and y_0 first); threads 1 and 2 load x_0 at the same line. Thread 2 surely loads: a race
  // decided without an engine. Thread 1 (whose pair comes first) loads only after it read y_0 as 1,
  // so its pair needs a slice — which a one-thread slice limit refuses. Same lines, same kind: the group is
  // reported once either way, so that pair changes nothing; a pair of another group would still be UNKNOWN.
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {3, 1, 1};
  l.init = {"x_0 = 0", "y_0 = 0", "z_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.tid.x == 0) return {"st.relaxed.gpu y_0, 1", "mov r5, 0", "st.weak x_0, 1", "SKIP:"};
    if (k.tid.x == 2) return {"ld.relaxed.gpu r1, z_0", "mov r5, 0", "ld.weak r0, x_0", "SKIP:"};
    return {"ld.relaxed.gpu r1, y_0", "beq r1, 0, SKIP", "ld.weak r0, x_0", "SKIP:"};
  };
  checker::kernel::KernelOptions options;
  options.slices.maxThreads = 1;
  const KernelResult r = testing::checkLaunch(l, options);
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.races.size() == 1);
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("the write half of a compare-and-swap that can never succeed races with nothing", "[checker][kernel]") {
  // x_0 is 0 and nobody writes 1: thread 0's CAS(1 -> 2) never writes, so thread 1's weak load of x_0 conflicts with
  // no write. Taking the write half as surely happening reported a race without an engine.
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"x_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.tid.x == 0) return {"atom.relaxed.gpu.cas r0, x_0, 1, 2"};
    return {"ld.weak r1, x_0"};
  };
  const KernelResult r = testing::checkLaunch(l);
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  // With a compare that succeeds on the initial value, the race is there (the engine on its slice finds it).
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.tid.x == 0) return {"atom.relaxed.gpu.cas r0, x_0, 0, 2"};
    return {"ld.weak r1, x_0"};
  };
  CHECK(testing::checkLaunch(l).races.size() == 1);
  CHECK(testing::wholeLaunchRaces(l));
}
