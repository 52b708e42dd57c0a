// Counted barriers with more participants than their count (BarrierPhases::leftover): a generation completes every
// `count` arrivals (spec §4.4), so when the participants' arrivals are not a multiple of the count the last
// generation never fills and the threads in it wait for ever — in every execution, whichever threads they are.
// No hang is claimed when the arrivals divide evenly, or when something before the barrier (a loop) could keep a
// participant from arriving: then the arithmetic proves nothing about this barrier.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using testing::TestLaunch;

namespace {

// One block of `threads` threads; each runs `bar.sync 1, 64` once. With `spinFirst`, thread 0 first polls flag_0
// (which nobody writes) in a loop.
TestLaunch namedBarrier(int threads, bool spinFirst = false) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {threads, 1, 1};
  l.init = {"flag_0 = 0"};
  l.code = [spinFirst](const frontend::KernelThread& k) -> std::vector<std::string> {
    std::vector<std::string> c;
    if (spinFirst && k.tid.x == 0) c = {"LOOP:", "ld.relaxed.gpu r0, flag_0", "beq r0, 0, LOOP"};
    c.push_back("bar.sync 1, 64");
    return c;
  };
  return l;
}

bool barrierHang(const KernelResult& r) {
  return std::any_of(r.hangs.begin(), r.hangs.end(), [](const auto& h) { return h.kind == "barrier never completes"; });
}

}  // namespace

TEST_CASE("three warps at a barrier counting two: the last generation never fills, a hang", "[checker][kernel][barrier][liveness]") {
  const KernelResult r = testing::checkLaunch(namedBarrier(96));
  REQUIRE(barrierHang(r));
  CHECK(r.hangs.front().threads.find("some of block 0 threads 0..95") != std::string::npos);
}

TEST_CASE("four warps at a barrier counting two fill two generations: no hang", "[checker][kernel][barrier][liveness]") {
  CHECK_FALSE(barrierHang(testing::checkLaunch(namedBarrier(128))));
}

TEST_CASE("no barrier hang is claimed when a participant may never reach the barrier", "[checker][kernel][barrier][liveness]") {
  // Thread 0 spins for ever (a hang of its own); the other 95 threads' arrivals say nothing about this barrier.
  CHECK_FALSE(barrierHang(testing::checkLaunch(namedBarrier(96, true))));
}
