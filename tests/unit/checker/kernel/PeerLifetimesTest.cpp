// DSMEM accesses against the owning CTA's exit (PeerLifetimes, spec §4.1): the shared memory of a CTA that has
// exited is undefined, so an access from another CTA of the cluster must be ordered before every thread of the owner
// exits. Without that proof the launch is UNKNOWN naming the access and the owner (not a race: the exit is not shown
// to come first either); a trailing cluster barrier, or the owner's wait on the mbarrier phase an st.async completes,
// is the proof.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

using checker::kernel::KernelResult;
using checker::kernel::KernelStatus;
using testing::TestLaunch;
using testing::idx;

// Two blocks of two threads in one cluster: block 0 fills s, both pass a cluster barrier, block 1 reads block 0's
// s (the other thread's slot) into out. With `trailingBarrier` both blocks pass a second cluster barrier at the end.
TestLaunch peerRead(bool trailingBarrier) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {2, 1, 1};
  l.clusterSize = 2;
  l.init = {"s_0 @ shared cta 0 = 0", "s_1 @ shared cta 0 = 0", "out_0 = 0", "out_1 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (k.cta == 0) c.push_back("st.shared.u32 [" + idx("s", t) + "], " + std::to_string(7 + t));
    c.push_back("barrier.cluster.arrive.aligned");
    c.push_back("barrier.cluster.wait.aligned");
    if (k.cta == 1) {
      c.push_back("ld.shared::cluster.u32 r0, [" + idx("s", 1 - t) + "]");
      c.push_back("st.u32 [" + idx("out", t) + "], r0");
    }
    if (trailingBarrier) {
      c.push_back("barrier.cluster.arrive.aligned");
      c.push_back("barrier.cluster.wait.aligned");
    }
    return c;
  };
  return l;
}

// Block 1's thread st.asyncs into block 0's buf, completing 4 bytes on block 0's mbarrier. With `ownerWaits`, block
// 0's thread announces the 4 bytes, waits on the phase and reads buf; without, it exits after the cluster barrier.
TestLaunch stAsyncIntoPeer(bool ownerWaits) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.clusterSize = 2;
  l.init = {"bar_0 @ mbarrier cta 0", "buf_0 @ shared cta 0 = 0", "out_0 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    std::vector<std::string> c;
    if (k.cta == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar_0], 1");
    c.push_back("barrier.cluster.arrive.aligned");
    c.push_back("barrier.cluster.wait.aligned");
    if (k.cta == 1) {
      c.push_back("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [buf_0], 5, [bar_0]");
    } else if (ownerWaits) {
      c.push_back("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 _, [bar_0], 4");
      c.push_back("LW:");
      c.push_back("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [bar_0], 0");
      c.push_back("@!p bra LW");
      c.push_back("ld.shared.u32 r0, [buf_0]");
      c.push_back("st.u32 [out_0], r0");
    }
    return c;
  };
  return l;
}

std::string unknowns(const KernelResult& r) {
  std::string all;
  for (const auto& u : r.unknowns) all += u + "\n";
  return all;
}

}  // namespace

TEST_CASE("a DSMEM read of a peer block that may already have exited is UNKNOWN, naming the access and the block", "[checker][kernel][cluster]") {
  const KernelResult r = testing::checkLaunch(peerRead(false));
  INFO(unknowns(r));
  CHECK(r.status == KernelStatus::Unknown);
  CHECK(r.races.empty());
  REQUIRE(r.unknowns.size() == 1);
  CHECK(r.unknowns[0].find("block (1,0,0)") != std::string::npos);
  CHECK(r.unknowns[0].find("may run after block (0,0,0) exited") != std::string::npos);
  CHECK(r.unknowns[0].find("spec §4.1") != std::string::npos);
}

TEST_CASE("a DSMEM read followed by a cluster barrier in both blocks is ordered before the owner's exit", "[checker][kernel][cluster]") {
  const KernelResult r = testing::checkLaunch(peerRead(true));
  INFO(unknowns(r));
  CHECK(r.unknowns.empty());
  CHECK(r.races.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("an st.async into a peer that waits on the mbarrier phase it completes is ordered before the peer's exit; into a peer that does not wait it is UNKNOWN", "[checker][kernel][cluster][mbarrier]") {
  const KernelResult waits = testing::checkLaunch(stAsyncIntoPeer(true));
  INFO(unknowns(waits));
  CHECK(waits.unknowns.empty());
  CHECK(waits.races.empty());
  CHECK(waits.status == KernelStatus::Ok);
  const KernelResult exits = testing::checkLaunch(stAsyncIntoPeer(false));
  INFO(unknowns(exits));
  CHECK(exits.status == KernelStatus::Unknown);
  REQUIRE(exits.unknowns.size() == 1);
  CHECK(exits.unknowns[0].find("may run after block (0,0,0) exited") != std::string::npos);
}

}  // namespace ptxmm
