// The may-order graph (MayOrder.hpp) against the model: whatever `cause` relates in some execution of a launch,
// the graph must reach, or the checker's "no path either way" shortcut reports races the model does not allow.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"
#include "checker/TestRunner.hpp"
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
  const checker::TestResult whole = checker::checkProgram(testing::ptxModel(), kp.program, {});
  REQUIRE(whole.status == checker::Status::Ok);
  CHECK(whole.races.empty());

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
