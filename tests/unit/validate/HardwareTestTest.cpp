// What runs on hardware and what is refused: roles, accesses and keys of a supported test, resolved barrier
// counts, 32-bit locations for .inc/.dec, and the refusals (proxies, shared memory, two GPUs, barriers that
// could hang, operations PTX lacks), each at the offending line.
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "validate/HardwareTest.hpp"

using namespace ptxmm::validate;

namespace {

HardwareTest analyzeText(const std::string& body, const std::vector<std::string>& keys) {
  return analyze(ptxmm::frontend::parseLitmus("PTX T\n" + body, "t.litmus"), keys);
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
  const std::string shared = refusal(R"({ x=0; }
 P0@cta 0,gpu 0      | P1@cta 0,gpu 0 ;
 st.weak.shared x, 1 | ld.weak.shared r0, x ;
exists (P1:r0 == 0)
)");
  REQUIRE(shared.find("t.litmus:4:") == 0);
  REQUIRE(shared.find("unsupported on hardware") != std::string::npos);
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
