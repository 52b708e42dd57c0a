// KernelValues' order for asynchronous accesses: issue order (an async access follows what its thread did before
// issuing it, spec §2.2 iss) and, for an access of the async proxy, the proxy fence that proxy-preserved causality
// needs between a generic write and it (ptx-core.cat C4: a fence.proxy.async of the right state space in the
// access's CTA, after the write and before the issue). A TMA-store epilogue: producers write a shared tile, fence
// the async proxy and arrive (release) on an mbarrier; thread 0 waits and bulk-stores the tile.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

using testing::TestLaunch;
using testing::idx;

TestLaunch epilogue(const std::string& proxyFence) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {3, 1, 1};
  l.init = {"bar_0 @ mbarrier cta 0", "tile_0 @ shared cta 0 = 0", "tile_1 @ shared cta 0 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar_0], 2");
    c.push_back("bar.sync 0");
    if (t > 0) {
      c.push_back("st.shared.u32 [" + idx("tile", t - 1) + "], " + std::to_string(4 + t));
      if (!proxyFence.empty()) c.push_back(proxyFence);
      c.push_back("mbarrier.arrive.release.cta.shared::cta.b64 _, [bar_0]");
      return c;
    }
    for (const auto& s : {"LW:", "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [bar_0], 0", "@!p bra LW"}) c.push_back(s);
    for (int e = 0; e < 2; ++e)
      c.push_back("cp.async.bulk.global.shared::cta.bulk_group [" + idx("out", e) + "], [" + idx("tile", e) + "], 4");
    c.push_back("cp.async.bulk.commit_group");
    c.push_back("cp.async.bulk.wait_group.read 0");
    return c;
  };
  return l;
}

TEST_CASE("a generic write reaches a later bulk copy's async-proxy read through a proxy fence in its CTA, without an engine", "[checker][kernel][async]") {
  const TestLaunch l = epilogue("fence.proxy.async.shared::cta");
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 5 && out[1] == 6"};
  testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

TEST_CASE("without a proxy fence, or with one for another state space, the bulk copy's read races with the write", "[checker][kernel][async]") {
  for (const std::string fence : {"", "fence.proxy.async.global"}) {
    INFO("fence: " << fence);
    const TestLaunch l = epilogue(fence);
    CHECK(testing::wholeLaunchRaces(l));
    const checker::kernel::KernelResult r = testing::checkLaunch(l);
    CHECK(testing::raceTexts(r) ==
          std::set<std::string>{"cp.async.bulk.global.shared::cta.bulk_group [out_0], [tile_0], 4 / st.shared.u32 [tile_0], 5: different proxies",
                                "cp.async.bulk.global.shared::cta.bulk_group [out_1], [tile_1], 4 / st.shared.u32 [tile_1], 6: different proxies"});
    CHECK(r.unknowns.empty());
  }
}

// The tile of a TMA-store epilogue reused after the copy's reads are retired: one thread stores the tile, fences
// the async proxy, bulk-stores it and writes the tile again (the next tile) after `cp.async.bulk.wait_group.read
// 0`. The read completion is followed by the implicit async->generic proxy fence (spec §4.7, §2.10 C3), so the
// copy's async read is ordered before the reuse for the engine on the whole launch as for the kernel checker;
// without the wait neither orders them (a race, different proxies).
TestLaunch tileReuse(bool waitRead) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"tile_0 @ shared cta 0 = 0", "out_0 = 0"};
  l.code = [=](const frontend::KernelThread&) -> std::vector<std::string> {
    std::vector<std::string> c{"st.shared.u32 [tile_0], 5", "fence.proxy.async.shared::cta",
                               "cp.async.bulk.global.shared::cta.bulk_group [out_0], [tile_0], 4", "cp.async.bulk.commit_group"};
    if (waitRead) c.push_back("cp.async.bulk.wait_group.read 0");
    c.push_back("st.shared.u32 [tile_0], 7");
    return c;
  };
  return l;
}

TEST_CASE("a bulk store's source may be reused after wait_group.read: the engines and the kernel checker agree", "[checker][kernel][async]") {
  CHECK_FALSE(testing::wholeLaunchRaces(tileReuse(true)));
  const checker::kernel::KernelResult reused = testing::checkLaunch(tileReuse(true));
  CHECK(reused.races.empty());
  CHECK(reused.unknowns.empty());
  CHECK(testing::wholeLaunchRaces(tileReuse(false)));
  CHECK(testing::raceTexts(testing::checkLaunch(tileReuse(false))) ==
        std::set<std::string>{"cp.async.bulk.global.shared::cta.bulk_group [out_0], [tile_0], 4 / st.shared.u32 [tile_0], 7: different proxies"});
}

// cp.async tiles: each thread copies one word into shared memory, retires its group and the block meets at a
// barrier before reading the other thread's word (cpasync-tile-syncthreads.cu in small). The wait that retires a
// copy orders it (spec §4.6: adone into the wait, then po and the barrier), so the pairs need no engine; without
// the wait, or with it after the barrier, nothing orders the copy (a bar.sync alone does not complete it).
TestLaunch cpAsyncTile(const std::string& where) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"in_0 = 7", "in_1 = 8", "tile_0 @ shared cta 0 = 0", "tile_1 @ shared cta 0 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c{"cp.async.ca.shared.global [" + idx("tile", t) + "], [" + idx("in", t) + "], 4",
                               "cp.async.commit_group"};
    if (where == "before the barrier") c.push_back("cp.async.wait_group 0");
    c.push_back("bar.sync 0");
    if (where == "after the barrier") c.push_back("cp.async.wait_group 0");
    c.push_back("ld.shared.u32 r1, [" + idx("tile", 1 - t) + "]");
    c.push_back("st.u32 [" + idx("out", t) + "], r1");
    return c;
  };
  return l;
}

TEST_CASE("a cp.async retired by its thread's wait_group before a barrier is ordered before reads after it, without an engine", "[checker][kernel][async]") {
  const TestLaunch l = cpAsyncTile("before the barrier");
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 8 && out[1] == 7"};
  testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

TEST_CASE("a cp.async not retired before the barrier races with the other thread's read", "[checker][kernel][async]") {
  for (const std::string where : {"nowhere", "after the barrier"}) {
    INFO("wait_group: " << where);
    const TestLaunch l = cpAsyncTile(where);
    CHECK(testing::wholeLaunchRaces(l));
    const checker::kernel::KernelResult r = testing::checkLaunch(l);
    CHECK(r.races.size() == 1);
    CHECK(r.unknowns.empty());
  }
}

// Group bookkeeping (PTX cp.async.commit_group / wait_group, spec §4.6): a commit_group with no uncommitted
// cp.async still makes a group, an empty one, and wait_group N commits nothing (only wait_all is commit_group +
// wait_group 0). Each thread copies one word, then runs `bookkeeping`, and the block meets at a barrier before
// reading the other thread's word. The CUTLASS multistage loop commits empty groups in its tail iterations
// (cpasync-ring3-wait-prior-one.cu); a copy left uncommitted is a forgotten __pipeline_commit().
TestLaunch cpAsyncGroups(const std::vector<std::string>& bookkeeping) {
  TestLaunch l = cpAsyncTile("nowhere");
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c{"cp.async.ca.shared.global [" + idx("tile", t) + "], [" + idx("in", t) + "], 4"};
    c.insert(c.end(), bookkeeping.begin(), bookkeeping.end());
    c.push_back("bar.sync 0");
    c.push_back("ld.shared.u32 r1, [" + idx("tile", 1 - t) + "]");
    c.push_back("st.u32 [" + idx("out", t) + "], r1");
    return c;
  };
  return l;
}

TEST_CASE("an empty commit_group is a group: wait_group 1 after it retires the copy committed before", "[checker][kernel][async]") {
  for (const std::vector<std::string>& bookkeeping :
       {std::vector<std::string>{"cp.async.commit_group", "cp.async.commit_group", "cp.async.wait_group 1"},
        std::vector<std::string>{"cp.async.commit_group", "cp.async.commit_group", "cp.async.commit_group", "cp.async.wait_group 2"},
        std::vector<std::string>{"cp.async.wait_all"}}) {
    INFO("bookkeeping: " << bookkeeping.size() << " instructions, last " << bookkeeping.back());
    const TestLaunch l = cpAsyncGroups(bookkeeping);
    CHECK_FALSE(testing::wholeLaunchRaces(l));
    checker::kernel::KernelOptions o;
    o.asserts = {"out[0] == 8 && out[1] == 7"};
    testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
  }
}

TEST_CASE("wait_group retires committed groups only: a copy never committed, or in the newest kept group, races", "[checker][kernel][async]") {
  for (const std::vector<std::string>& bookkeeping :
       {std::vector<std::string>{"cp.async.wait_group 0"},
        std::vector<std::string>{"cp.async.commit_group", "cp.async.wait_group 1"},
        std::vector<std::string>{"cp.async.commit_group", "cp.async.commit_group", "cp.async.wait_group 2"}}) {
    INFO("bookkeeping: " << bookkeeping.size() << " instructions, last " << bookkeeping.back());
    const TestLaunch l = cpAsyncGroups(bookkeeping);
    CHECK(testing::wholeLaunchRaces(l));
    const checker::kernel::KernelResult r = testing::checkLaunch(l);
    CHECK(r.races.size() == 1);
    CHECK(r.unknowns.empty());
  }
}

}  // namespace
}  // namespace ptxmm
