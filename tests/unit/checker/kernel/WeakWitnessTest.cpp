// Schedules replayed by the model (WeakWitness.hpp): every sequentially consistent schedule of small launches is an
// execution the model accepts (the ScheduleExplorer argument, checked by the model itself); a lost update under a
// CAS lock without fences, which no sequentially consistent schedule shows, is found with one stale read and
// certified; with the fences a lock needs, or a release/acquire hand-off, no stale read is certified.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"
#include "checker/kernel/WeakWitness.hpp"

using namespace ptxmm;
using checker::kernel::ScheduleExplorer;
using testing::TestLaunch;

namespace {

// `blocks` blocks of `threads` threads each take a CAS lock and increment counter_0 inside it, with or without
// fence.sc around the critical section.
TestLaunch lockedIncrements(int blocks, int threads, bool fences) {
  return {{blocks, 1, 1}, {threads, 1, 1}, 1, {"lock_0 = 0", "counter_0 = 0"}, [fences](const frontend::KernelThread&) {
            std::vector<std::string> c{"SPIN:", "atom.relaxed.gpu.cas r0, lock_0, 0, 1", "bne r0, 0, SPIN"};
            if (fences) c.push_back("fence.sc.gpu");
            c.insert(c.end(), {"ld.weak r1, counter_0", "add r2, r1, 1", "st.weak counter_0, r2"});
            if (fences) c.push_back("fence.sc.gpu");
            c.push_back("atom.relaxed.gpu.exch r9, lock_0, 0");
            return c;
          }};
}

// Thread 0 publishes data_0 = 7 through flag_0 with release/acquire; the others wait for it and copy data_0 to
// out_<t>.
TestLaunch publication(int threads) {
  TestLaunch l{{1, 1, 1}, {threads, 1, 1}, 1, {"data_0 = 0", "flag_0 = 0"}, {}};
  for (int t = 1; t < threads; ++t) l.init.push_back(testing::idx("out", t) + " = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.tid.x == 0) return {"st.weak data_0, 7", "st.release.gpu flag_0, 1"};
    return {"SPIN:", "ld.acquire.gpu r1, flag_0", "beq r1, 0, SPIN", "ld.weak r2, data_0",
            "st.weak " + testing::idx("out", k.tid.x) + ", r2"};
  };
  return l;
}

struct Launch {
  explicit Launch(const TestLaunch& l) : kp(testing::makeKernel(l)), graph(kp, 2), explorer(graph) {}
  frontend::KernelProgram kp;
  checker::kernel::KernelGraph graph;
  ScheduleExplorer explorer;
  std::size_t at(const std::string& name) const { return static_cast<std::size_t>(graph.graph().physicalOf(name)); }
};

}  // namespace

TEST_CASE("the model accepts every sequentially consistent schedule of small launches", "[checker][kernel][schedules]") {
  for (const TestLaunch& l : {lockedIncrements(2, 2, false), lockedIncrements(1, 3, true), publication(4)}) {
    const Launch x(l);
    REQUIRE(x.explorer.unsupported().empty());
    std::size_t certified = 0;
    for (std::size_t s = 0; s < x.explorer.scheduleCount(); ++s) {
      const auto run = x.explorer.run(s, {});
      if (!run) continue;
      std::string why;
      INFO(run->schedule);
      CHECK(checker::kernel::certify(testing::ptxModel(), x.graph, *run, why));
      INFO(why);
      ++certified;
    }
    CHECK(certified > 0);
  }
}

TEST_CASE("a lost update under a lock without fences: no sequentially consistent schedule, one certified stale read", "[checker][kernel][schedules]") {
  const Launch x(lockedIncrements(2, 4, false));
  const auto lost = [&](const std::vector<std::int64_t>& m) { return m[x.at("counter_0")] != 8; };
  CHECK_FALSE(x.explorer.find(lost, {}));
  const auto weak = checker::kernel::findWeak(testing::ptxModel(), x.graph, x.explorer, lost, {});
  REQUIRE(weak);
  CHECK(weak->memory[x.at("counter_0")] < 8);
}

TEST_CASE("with the fences a lock needs, or a release/acquire hand-off, no stale read is certified", "[checker][kernel][schedules]") {
  const Launch locked(lockedIncrements(2, 2, true));
  CHECK_FALSE(checker::kernel::findWeak(testing::ptxModel(), locked.graph, locked.explorer,
                                        [&](const std::vector<std::int64_t>& m) { return m[locked.at("counter_0")] != 4; }, {}));
  const Launch published(publication(3));
  const auto stale = [&](const std::vector<std::int64_t>& m) { return m[published.at("out_1")] != 7 || m[published.at("out_2")] != 7; };
  // Stale reads are tried and refused: some schedule with one does break the claim.
  bool tried = false;
  for (int k = 0; k < 4; ++k)
    if (const auto run = published.explorer.run(0, {}, k)) tried = tried || stale(run->memory);
  CHECK(tried);
  CHECK_FALSE(checker::kernel::findWeak(testing::ptxModel(), published.graph, published.explorer, stale, {}));
}
