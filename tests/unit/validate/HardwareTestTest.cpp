// What runs on hardware and what is refused: roles, accesses and keys of a supported test, resolved barrier
// counts, 32-bit locations for .inc/.dec, shared memory, mbarriers and DSMEM with their address kinds, cluster
// barriers, bulk copies and TMA with their slot sizes and drains, and the refusals (texture/surface proxies,
// two GPUs, barriers that could hang, operations PTX lacks, tcgen05, writes to a tensor map, final values of
// shared memory, threads sharing a warp), each at the offending line.
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "validate/HardwareTest.hpp"
#include "validate/PtxForm.hpp"

using namespace ptxmm::validate;

namespace {

HardwareTest analyzeText(const std::string& body, const std::vector<std::string>& keys) {
  return analyze(ptxmm::frontend::parseLitmus("PTX T\n" + body, "t.litmus"), keys);
}

HardwareTest analyzeCase(const std::string& test, const std::vector<std::string>& keys) {
  return analyze(ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus"), keys);
}

// The address kinds of role `r`'s arguments, in order.
std::vector<AddrKind> kinds(const HardwareTest& hw, int r) {
  std::vector<AddrKind> out;
  for (const auto& a : hw.roles[static_cast<std::size_t>(r)].accesses) out.push_back(a.kind);
  return out;
}

// The refusal message for `body`, or "" when it is accepted.
std::string refusal(const std::string& body, const std::vector<std::string>& keys = {}) {
  try {
    analyzeText(body, keys);
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a message-passing test becomes two roles with their accesses", "[validate][hardware]") {
  const HardwareTest hw = analyzeText(R"({ x=0; y=5; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\ P1:r1 == 0 /\ y == 1)
)", {"P1:r0", "P1:r1", "y"});
  REQUIRE(hw.roles.size() == 2);
  REQUIRE(hw.roles[1].cta == 1);
  REQUIRE(hw.ctaCluster == std::vector<int>{0, 1});
  REQUIRE(hw.clusterSize == 1);
  REQUIRE(hw.roles[1].accesses.size() == 2);
  REQUIRE(hw.roles[1].accesses[0].location == hw.locationIndex.at("y"));
  REQUIRE(hw.locations[1].init == 5);
  REQUIRE(hw.roles[1].observed == std::vector<std::string>{"r0", "r1"});
  REQUIRE(hw.keys[2].location);
  REQUIRE_FALSE(hw.usesBarriers);
}

TEST_CASE("clusters are launched as clusters", "[validate][hardware]") {
  const HardwareTest hw = analyzeText(R"({ x=0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 2,gpu 0 ;
 st.relaxed.cluster x, 1  | ld.relaxed.cluster r0, x  | ld.weak r1, x  ;
exists (P1:r0 == 1)
)", {"P1:r0"});
  REQUIRE(hw.clusterSize == 2);
  REQUIRE(hw.ctaCluster == std::vector<int>{0, 0, 1});
}

TEST_CASE("barrier counts are resolved and checked", "[validate][hardware]") {
  const HardwareTest hw = analyzeText(R"({ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | bar.cta.sync 1 ;
 bar.cta.sync 1 | ld.weak r0, x  ;
exists (P1:r0 == 0)
)", {"P1:r0"});
  REQUIRE(hw.usesBarriers);
  REQUIRE(hw.roles[0].barrierCount.at(1) == 64);  // no count: 32 per participating warp
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0     | P1@cta 0,gpu 0 ;
 bar.sync 0, 64     | ld.weak r0, x  ;
exists (P1:r0 == 0)
)").find("the count 64 is not 32 times the 1 thread") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0     | P1@cta 0,gpu 0 ;
 bar.cta.sync 0, 64 | ld.weak r0, x  ;
exists (P1:r0 == 0)
)").find("Dat3M's labelled barrier") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 bar.cta.sync 0 | bar.cta.sync 1 ;
 bar.cta.sync 1 | bar.cta.sync 0 ;
exists (x == 0)
)").find("deadlock") != std::string::npos);
}

TEST_CASE("atom .inc makes its location 32-bit", "[validate][hardware]") {
  const HardwareTest hw = analyzeText(R"({ x=0; y=0; }
 P0@cta 0,gpu 0                 | P1@cta 1,gpu 0 ;
 atom.relaxed.gpu.inc r0, x, 10 | ld.weak r1, y  ;
exists (P0:r0 == 0)
)", {"P0:r0"});
  REQUIRE(hw.locations[0].width == 4);
  REQUIRE(hw.locations[1].width == 8);
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0                         ;
 atom.relaxed.gpu.inc r0, x, 5000000000 ;
exists (P0:r0 == 0)
)").find("does not fit the 32-bit location") != std::string::npos);
}

TEST_CASE("what a GPU cannot run exactly is refused at its line", "[validate][hardware]") {
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;
 st.weak x, 1   | ld.weak r0, x  ;
exists (P1:r0 == 0)
)").find("2 GPUs") != std::string::npos);
  // A location declared without a space that every access names .shared lives in the CTA of its threads (tests
  // written before shared declarations); one that is also accessed as global memory is global.
  REQUIRE(analyzeText(R"({ x=0; }
 P0@cta 0,gpu 0      | P1@cta 0,gpu 0 ;
 st.weak.shared x, 1 | ld.weak.shared r0, x ;
exists (P1:r0 == 0)
)", {"P1:r0"}).locations[0].shared);
  const std::string shared = refusal(R"({ x=0; }
 P0@cta 0,gpu 0      | P1@cta 0,gpu 0 ;
 st.weak.shared x, 1 | ld.weak r0, x  ;
exists (P1:r0 == 0)
)");
  REQUIRE(shared.find("t.litmus:4:") == 0);
  REQUIRE(shared.find("is in global memory, not in shared memory") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; y @ generic aliases x; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, y  ;
exists (P0:r0 == 0)
)").find("alias of 'x'") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; s @ surface aliases x; }
 P0@cta 0,gpu 0 ;
 suld r0, s     ;
exists (P0:r0 == 0)
)").find("generic-proxy") != std::string::npos);
  // A declared alias that nothing uses changes nothing.
  REQUIRE(refusal(R"({ x=0; y @ generic aliases x; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, x  ;
exists (P0:r0 == 0)
)", {"P0:r0"}).empty());
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0               ;
 atom.relaxed.gpu.mul r0, x, 2 ;
exists (P0:r0 == 0)
)").find("no atom/red instruction") != std::string::npos);
}

TEST_CASE("shared memory, mbarriers and DSMEM get the address their CTA reaches them by", "[validate][hardware]") {
  const HardwareTest hw = analyzeCase("HOP+mbar-cluster-arrive-rel+wait-acq", {"P1:r0"});
  REQUIRE(hw.clusterSize == 2);
  REQUIRE(hw.clusterSync);          // P0 reaches CTA 1's shared memory
  REQUIRE(hw.clusterPhases == 1);   // one barrier.cluster arrive/wait pair per thread
  REQUIRE(hw.sharedLocations.size() == 2);
  REQUIRE(hw.globalLocations.empty());
  const HwLocation& s = hw.locations[static_cast<std::size_t>(hw.locationIndex.at("s"))];
  const HwLocation& b = hw.locations[static_cast<std::size_t>(hw.locationIndex.at("b"))];
  REQUIRE((s.shared && s.ownerCta == 1 && s.width == 4 && !s.mbarrier));
  REQUIRE((b.shared && b.mbarrier && b.width == 8));
  // P0 (CTA 0): the DSMEM store and the remote arrive; P1 (CTA 1): init, wait and load in its own CTA.
  REQUIRE(kinds(hw, 0) == std::vector<AddrKind>{AddrKind::SharedCluster, AddrKind::SharedCluster});
  REQUIRE(kinds(hw, 1) == std::vector<AddrKind>{AddrKind::SharedCta, AddrKind::SharedCta, AddrKind::SharedCta});
}

TEST_CASE("barriers after a loop run; barriers a branch can skip or a loop repeats are refused", "[validate][hardware]") {
  const HardwareTest hw = analyzeCase("HOP+gpu-flag-fence.acq_rel", {"P3:r2"});
  REQUIRE(hw.usesBarriers);
  REQUIRE(hw.roles[2].hasBackwardBranch);
  REQUIRE(hw.roles[2].barrierCount.size() == 1);  // the bar.sync after the spin loop
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,gpu 0  | P1@cta 0,gpu 0 ;
 ld.weak r0, x   | bar.cta.sync 0 ;
 beq r0, 1, L    | st.weak x, 1   ;
 bar.cta.sync 0  |                ;
 L:              |                ;
exists (x == 0)
)").find("behind a branch") != std::string::npos);
}

TEST_CASE("every thread of a cluster passes the same number of cluster barriers", "[validate][hardware]") {
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 barrier.cluster.arrive   | st.weak x, 1             ;
 barrier.cluster.wait     |                          ;
exists (x == 0)
)").find("the same number") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 barrier.cluster.wait     | barrier.cluster.arrive   ;
 barrier.cluster.arrive   | barrier.cluster.wait     ;
exists (x == 0)
)").find("alternating arrive and wait") != std::string::npos);
}

TEST_CASE("copies size and align their slots, and their issuers drain them", "[validate][hardware]") {
  const HardwareTest tma = analyzeCase("HOP+tma-load-wait-other-mbar", {"P1:r0"});
  REQUIRE(tma.usesTensorMap);
  const HwLocation& g = tma.locations[static_cast<std::size_t>(tma.locationIndex.at("g"))];
  REQUIRE((!g.shared && g.width == 4 && g.bytes == kTensorBoxBytes));
  REQUIRE(tma.globalAlign == 16);
  REQUIRE(tma.sharedAlign == 128);  // the shared side of a TMA copy
  // P0 issues the copy on b and waits for nothing: the harness drains b after P0's last instruction.
  REQUIRE(tma.roles[0].drainsMbarriers == std::vector<int>{tma.locationIndex.at("b")});
  REQUIRE(kinds(tma, 0)[3] == AddrKind::SharedCluster);  // [s], [tm, g], [b]: the destination written .shared::cluster
  REQUIRE(kinds(tma, 0)[4] == AddrKind::TensorMap);
  REQUIRE(kinds(tma, 0)[5] == AddrKind::TensorCoord);
  const HardwareTest reduce = analyzeCase("HOP+bulk-reduce-nowait", {"P1:r1"});
  REQUIRE(reduce.roles[0].drainsBulkGroup);
  REQUIRE(analyzeCase("HOP+cp.async-nowait+bar.sync", {"P1:r0"}).roles[0].drainsCpAsync);
}

TEST_CASE("what Hopper cannot run, or the harness cannot run exactly, is refused with the reason", "[validate][hardware]") {
  auto refused = [](const std::string& test, const std::vector<std::string>& keys) {
    try {
      analyzeCase(test, keys);
    } catch (const Unsupported& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  REQUIRE(refused("HOP+tc-mma+commit+ld", {"P1:r0"}).find("sm_100") != std::string::npos);
  REQUIRE(refused("HOP+tensormap-modified-nofence", {"s"}).find("TMA descriptor") != std::string::npos);
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,warp 0,gpu 0 | P1@cta 0,warp 0,gpu 0 | P2@cta 0,warp 0,gpu 0 ;
 st.weak x, 1          | st.weak x, 2          | st.weak x, 3          ;
exists (x == 0)
)").find("2, 4, 8, 16 or 32") != std::string::npos);
  REQUIRE(refusal(R"({ s @ shared cta 0 = 0; }
 P0@cta 0,gpu 0       ;
 st.shared.u32 [s], 1 ;
exists (s == 0)
)", {"s"}).find("not in global memory") != std::string::npos);
  REQUIRE(refusal(R"({ s @ shared cta 1 = 0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0        ;
 st.shared.u32 [s], 1 | ld.shared.u32 r0, [s] ;
exists (P1:r0 == 0)
)").find("another CTA") != std::string::npos);
}

TEST_CASE("threads sharing a warp share hardware warps and run their CTA barriers non-aligned", "[validate][hardware]") {
  const HardwareTest hw = analyzeCase("HOP+warp-elected-arrive+warp.sync", {"P2:r0", "P2:r1"});
  REQUIRE(hw.sharedWarps);
  REQUIRE((hw.roles[0].sharesWarp && hw.roles[1].sharesWarp && !hw.roles[2].sharesWarp));
  REQUIRE(hw.roles[0].warp == hw.roles[1].warp);
  REQUIRE(hw.roles[2].warp != hw.roles[0].warp);
  REQUIRE(roleForm(hw, hw.roles[0], 1).mnemonic == "barrier.sync 0, 96");  // bar.sync 0 of three warps' worth of lanes
  REQUIRE(roleForm(hw, hw.roles[2], 0).mnemonic == "bar.sync 0, 96");
  // Lanes of one warp wait for each other at a barrier: the threads of a warp must pass the same ones.
  REQUIRE(refusal(R"({ x=0; }
 P0@cta 0,warp 0,gpu 0 | P1@cta 0,warp 0,gpu 0 ;
 st.weak x, 1          | ld.weak r0, x         ;
 bar.sync 0            |                       ;
exists (P1:r0 == 0)
)").find("share a warp but not their barriers") != std::string::npos);
}
