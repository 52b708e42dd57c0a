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

}  // namespace
}  // namespace ptxmm
