// MbarrierPhases on a counter barrier (a word used as an mbarrier, as cg::this_grid().sync() does): every block's
// thread 0 writes its partial, adds to a zero-initialised counter with a release atomic and polls the counter
// until every block has added; then it reads the other block's partial. An acquire poll that can exit only on the
// last value is an acquire tail (ap1), so the hand-off is ordered without an engine; a relaxed poll, or one that
// exits before every block has added, leaves the pair to the engines, which find the race.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

using testing::TestLaunch;
using testing::idx;

// `spin`: the setp that keeps the thread polling (p) on the value read (r2).
TestLaunch counterBarrier(const std::string& poll, const std::string& spin) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"cnt_0 = 0", "part_0 = 0", "part_1 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int b = k.cta;
    return {"st.u32 [" + idx("part", b) + "], " + std::to_string(10 + b),
            "atom.release.gpu.add r1, cnt_0, 1",
            "LW:",
            poll + " r2, [cnt_0]",
            spin,
            "@p bra LW",
            "ld.u32 r0, [" + idx("part", 1 - b) + "]",
            "st.u32 [" + idx("out", b) + "], r0"};
  };
  return l;
}

TEST_CASE("a counter barrier with release adds and an acquire poll orders the blocks' hand-off without an engine", "[checker][kernel][mbarrier]") {
  const TestLaunch l = counterBarrier("ld.acquire.gpu.u32", "setp.ne.s32 p, r2, 2");
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 11 && out[1] == 10"};
  testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

TEST_CASE("a counter barrier with a relaxed poll, or a poll that exits early, races", "[checker][kernel][mbarrier]") {
  // Exiting on any value but 0 lets a block leave after its own add alone.
  for (const auto& [poll, spin] : std::vector<std::pair<std::string, std::string>>{{"ld.relaxed.gpu.u32", "setp.ne.s32 p, r2, 2"},
                                                                                  {"ld.acquire.gpu.u32", "setp.eq.s32 p, r2, 0"}}) {
    INFO(poll << "; " << spin);
    const TestLaunch l = counterBarrier(poll, spin);
    CHECK(testing::wholeLaunchRaces(l));
    const checker::kernel::KernelResult r = testing::checkLaunch(l);
    CHECK_FALSE(r.races.empty());
    CHECK(r.unknowns.empty());
  }
}

// A cuda::latch of one CTA (latch-block.cu): thread 0 stores the count (`withBarrier`: then every thread meets
// at bar.sync), each thread writes its part, counts down with a release add and polls with an acquire load until
// the count is 0, then reads the other thread's part.
TestLaunch latch(bool withBarrier) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"cnt_0 = 0", "part_0 = 0", "part_1 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("st.u32 [cnt_0], 2");
    if (withBarrier) c.push_back("bar.sync 0");
    for (const std::string& in : {"st.u32 [" + idx("part", t) + "], " + std::to_string(10 + t), std::string("atom.release.cta.add r1, cnt_0, -1"),
                                  std::string("LW:"), std::string("ld.acquire.cta.u32 r2, [cnt_0]"), std::string("setp.ne.s32 p, r2, 0"),
                                  std::string("@p bra LW"), "ld.u32 r0, [" + idx("part", 1 - t) + "]", "st.u32 [" + idx("out", t) + "], r0"})
      c.push_back(in);
    return c;
  };
  return l;
}

TEST_CASE("a latch whose count one thread stores before a barrier is a counter barrier: decided without an engine", "[checker][kernel][mbarrier]") {
  const TestLaunch l = latch(true);
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 11 && out[1] == 10"};
  testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

TEST_CASE("a latch whose count store is not ordered before the count-downs is no counter barrier", "[checker][kernel][mbarrier]") {
  // Without the barrier thread 1 may count down before thread 0 stores the count (the store then overwrites it)
  // or read the count's initial 0 and leave at once: it reads part_0 unordered with thread 0's write.
  const TestLaunch l = latch(false);
  CHECK(testing::wholeLaunchRaces(l));
  CHECK_FALSE(testing::checkLaunch(l).races.empty());
}

}  // namespace
}  // namespace ptxmm
