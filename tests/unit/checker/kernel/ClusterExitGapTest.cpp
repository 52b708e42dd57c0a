// Cluster barriers that some threads of the cluster never arrive at (ClusterPhases::exitGaps): barrier.cluster.wait
// waits for every non-exited thread of the cluster (spec §4.3), and the unrolled barrier counts only the threads
// that arrive. A thread that skips the barrier and then waits for what a waiter does after its wait makes both wait
// for ever on a GPU; ptxmm must not call that kernel Ok — the verdict is UNKNOWN with the reason. A thread that
// skips the barrier and surely exits (no loop, no wait) releases it: still decided.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using checker::kernel::KernelStatus;
using testing::TestLaunch;

namespace {

// A 2-block cluster of one thread per block. Block 0 arrives and waits at barrier.cluster, then sets flag_0.
// Block 1 skips the barrier and, with `blockOneSpins`, polls flag_0 until it reads 1 (a cycle of waits); without
// it, block 1 only stores to out_1 and exits.
TestLaunch skippedClusterBarrier(bool blockOneSpins) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.clusterSize = 2;
  l.init = {"flag_0 = 0", "out_1 = 0"};
  l.code = [blockOneSpins](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"barrier.cluster.arrive", "barrier.cluster.wait", "st.relaxed.gpu flag_0, 1"};
    if (!blockOneSpins) return {"st.relaxed.gpu out_1, 5"};
    return {"LOOP:", "ld.relaxed.gpu r0, flag_0", "beq r0, 0, LOOP"};
  };
  return l;
}

}  // namespace

TEST_CASE("a thread that skips the cluster barrier and waits for what a waiter does after it is not judged to end", "[checker][kernel][cluster][liveness]") {
  const KernelResult r = testing::checkLaunch(skippedClusterBarrier(true), {});
  CHECK(r.status == KernelStatus::Unknown);
  INFO((r.unknowns.empty() ? std::string() : r.unknowns.front()));
  REQUIRE(r.unknowns.size() == 1);
  CHECK(r.unknowns[0].find("block 1 thread") != std::string::npos);
  CHECK(r.unknowns[0].find("never arrive at the barrier.cluster") != std::string::npos);
}

TEST_CASE("a thread that skips the cluster barrier and then exits releases it: the launch is still decided", "[checker][kernel][cluster][liveness]") {
  const KernelResult r = testing::checkLaunch(skippedClusterBarrier(false), {});
  INFO((r.unknowns.empty() ? std::string() : r.unknowns.front()));
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
  CHECK(r.hangs.empty());
}
