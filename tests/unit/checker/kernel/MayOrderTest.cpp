// The may-order graph (MayOrder.hpp) against the model: whatever `cause` relates in some execution of a launch,
// the graph must reach, or the checker's "no path either way" shortcut reports races the model does not allow.
#include <catch2/catch.hpp>

#include <tuple>

#include "KernelTestSupport.hpp"
#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/MayOrder.hpp"

using namespace ptxmm;
using checker::kernel::KernelGraph;
using testing::TestLaunch;

namespace {

// The first event of thread `thread` performed by the instruction whose text is `text`.
int eventOf(const KernelGraph& k, int thread, const std::string& text) {
  const auto& g = k.graph();
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e)
    if (g.events[e].thread == thread && k.instruction(static_cast<int>(e)).text == text)
      return static_cast<int>(e);
  FAIL("no event of " << text << " in thread " << thread);
  return -1;
}

// Block 0 writes x (strong); block 1 reads x relaxed, publishes what it read in y and then overwrites x with a
// weak store; block 2 waits until y is 1. In every execution that ends, block 1's read reads block 0's write, so
// `obs ; ppbc` (the read, then po to a write of the same location) orders the two writes of x: no race. The
// read is "passive" (it ends no acquire pattern), yet the path through it must exist for that pair.
TestLaunch observedThenOverwritten() {
  TestLaunch l;
  l.grid = {3, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"x_0 = 0", "y_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.relaxed.gpu x_0, 1"};
    if (k.cta == 1) return {"ld.relaxed.gpu r0, x_0", "st.relaxed.gpu y_0, r0", "st.weak x_0, 2"};
    return {"LOOP:", "ld.relaxed.gpu r1, y_0", "bne r1, 1, LOOP"};
  };
  return l;
}

}  // namespace

TEST_CASE("obs ; ppbc: a strong write observed by a relaxed read is ordered before the reader's later access of its location",
          "[checker][kernel][mayorder]") {
  const frontend::KernelProgram kp = testing::makeKernel(observedThenOverwritten());
  // The model, on the whole launch: the two writes of x never race.
  CHECK_FALSE(testing::wholeLaunchRaces(observedThenOverwritten()));

  const KernelGraph k(kp, 2);
  const checker::kernel::BarrierPhases phases(k);
  checker::kernel::MayOrder order(k, &phases);
  const int a = eventOf(k, 0, "st.relaxed.gpu x_0, 1");
  const int b = eventOf(k, 1, "st.weak x_0, 2");
  CHECK(order.reaches(a, b));
  CHECK_FALSE(order.reaches(b, a));
  // The path runs through the read: a slice for the pair keeps it.
  const std::vector<int> path = order.between(a, b);
  CHECK(std::find(path.begin(), path.end(), eventOf(k, 1, "ld.relaxed.gpu r0, x_0")) != path.end());
}

TEST_CASE("a relaxed read still orders nothing after it for accesses of other locations", "[checker][kernel][mayorder]") {
  // Same launch, but block 1 overwrites a location block 0 does not write: obs ; ppbc needs one location, and
  // the read ends no acquire pattern, so block 0's write of x reaches nothing of block 1 after the read.
  TestLaunch l = observedThenOverwritten();
  l.init.push_back("z_0 = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.weak z_0, 3", "st.relaxed.gpu x_0, 1"};
    return {"ld.relaxed.gpu r0, x_0", "st.weak z_0, 2"};
  };
  l.grid = {2, 1, 1};
  const frontend::KernelProgram kp = testing::makeKernel(l);
  const KernelGraph k(kp, 2);
  const checker::kernel::BarrierPhases phases(k);
  checker::kernel::MayOrder order(k, &phases);
  CHECK_FALSE(order.reaches(eventOf(k, 0, "st.weak z_0, 3"), eventOf(k, 1, "st.weak z_0, 2")));
  CHECK_FALSE(order.reaches(eventOf(k, 0, "st.relaxed.gpu x_0, 1"), eventOf(k, 1, "st.weak z_0, 2")));
}

namespace {

// Thread 0 writes x, runs `fence` (when given) and sets flag f relaxed; thread 1 waits for f with an acquire
// load, then sets g with `publish`; thread 2 waits for g with an acquire load and reads x.
TestLaunch relayedFlag(const std::string& fence, const std::string& publish) {
  TestLaunch l;
  l.grid = {3, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"x_0 = 0", "f_0 = 0", "g_0 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) {
      std::vector<std::string> c{"st.weak x_0, 1"};
      if (!fence.empty()) c.push_back(fence);
      c.push_back("st.relaxed.gpu f_0, 1");
      return c;
    }
    if (k.cta == 1) return {"L1:", "ld.acquire.gpu r1, f_0", "bne r1, 1, L1", publish};
    return {"L2:", "ld.acquire.gpu r2, g_0", "bne r2, 1, L2", "ld.weak r3, x_0"};
  };
  return l;
}

}  // namespace

TEST_CASE("a write starts no synchronisation without a release head before it in its thread (rp1-rp3)", "[checker][kernel][mayorder]") {
  // {fence of thread 0, thread 1's publication of g, whether x is ordered}
  for (const auto& [fence, publish, ordered] : std::vector<std::tuple<std::string, std::string, bool>>{
           {"", "st.release.gpu g_0, 1", false},                  // thread 0's relaxed flag heads nothing
           {"fence.release.gpu", "st.relaxed.gpu g_0, 1", false},  // thread 1's relaxed g heads nothing
           {"fence.release.gpu", "st.release.gpu g_0, 1", true},
           {"fence.sc.gpu", "red.release.gpu.add g_0, 1", true},
           {"fence.acq_rel.gpu", "atom.relaxed.gpu.exch r4, g_0, 1", false}}) {
    INFO("[" << fence << "] [" << publish << "]");
    const TestLaunch l = relayedFlag(fence, publish);
    CHECK(testing::wholeLaunchRaces(l) == !ordered);
    const frontend::KernelProgram kp = testing::makeKernel(l);
    const KernelGraph k(kp, 2);
    const checker::kernel::BarrierPhases phases(k);
    checker::kernel::MayOrder order(k, &phases);
    const int w = eventOf(k, 0, "st.weak x_0, 1"), r = eventOf(k, 2, "ld.weak r3, x_0");
    CHECK(order.reaches(w, r) == ordered);
    CHECK_FALSE(order.reaches(r, w));
  }
}

TEST_CASE("an observation chain through another thread's relaxed RMW still carries a release", "[checker][kernel][mayorder]") {
  // Thread 0's release of f is read by thread 1's relaxed RMW, whose write thread 2 acquires: obs through rmw.
  TestLaunch l = relayedFlag("", "");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.weak x_0, 1", "st.release.gpu f_0, 1"};
    if (k.cta == 1) return {"atom.relaxed.gpu.add r1, f_0, 1"};
    return {"L2:", "ld.acquire.gpu r2, f_0", "bne r2, 2, L2", "ld.weak r3, x_0"};
  };
  const frontend::KernelProgram kp = testing::makeKernel(l);
  CHECK_FALSE(testing::wholeLaunchRaces(l));
  const KernelGraph k(kp, 2);
  const checker::kernel::BarrierPhases phases(k);
  checker::kernel::MayOrder order(k, &phases);
  CHECK(order.reaches(eventOf(k, 0, "st.weak x_0, 1"), eventOf(k, 2, "ld.weak r3, x_0")));
}
