// The SASS check: it accepts the real SASS of correct tests (MP+rel+acq, and Hopper-era ones: mbarriers, a TMA
// load in its waterfall loop, cluster barriers with their out-of-line divergent copies, compiled by nvcc 13.0
// for sm_90 and stored under data/ with the role functions only) and refuses doctored versions: a lost access,
// a weak load merged with another, a reordering, a missing fence half, a strong access turned weak, aggregated
// atomics, a load hoisted out of a loop, a test_wait where a try_wait was written, an ELECT outside a waterfall
// loop.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "frontend/litmus/LitmusParser.hpp"
#include "validate/CudaGenerator.hpp"
#include "validate/Pipeline.hpp"
#include "validate/SassChecker.hpp"

using namespace ptxmm::validate;

namespace {

std::string readData(const std::string& name) {
  std::ifstream in(std::string(PTXMM_SOURCE_DIR) + "/tests/unit/validate/data/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

HardwareTest hopperCase(const std::string& test, const std::vector<std::string>& keys) {
  return analyze(ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus"), keys);
}

HardwareTest mp() {
  const auto p = ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/MP+rel+acq.litmus");
  return analyze(p, {"P1:r0", "P1:r1"});
}

// Checks role `r` of `hw` against `listing`.
SassVerdict check(const HardwareTest& hw, const std::string& listing, int r) {
  const auto functions = parseSass(listing);
  const SassFunction* f = findFunction(functions, roleFunctionName(r));
  REQUIRE(f != nullptr);
  return checkRole(*f, expectedInstructions(hw, r), "P" + std::to_string(r));
}

std::string replaceLine(std::string text, const std::string& pattern, const std::string& with) {
  return std::regex_replace(text, std::regex(pattern), with, std::regex_constants::format_first_only);
}

bool mentions(const SassVerdict& v, const std::string& what) {
  for (const auto& p : v.problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("the listing parser finds role functions and instructions", "[validate][sass]") {
  const auto functions = parseSass(readData("MP+rel+acq.sass"));
  REQUIRE(functions.size() == 2);
  const SassFunction* f = findFunction(functions, "ptxmm_role_1");
  REQUIRE(f);
  REQUIRE(f->code[2].opcode == "LDG.E.64.STRONG.GPU");
  REQUIRE(f->code[2].base == "LDG");
  REQUIRE(f->code[2].address == 0x20);
}

TEST_CASE("the real SASS of MP+rel+acq passes", "[validate][sass]") {
  const HardwareTest hw = mp();
  const std::string listing = readData("MP+rel+acq.sass");
  const SassVerdict writer = check(hw, listing, 0);
  INFO((writer.problems.empty() ? "" : writer.problems[0]));
  REQUIRE(writer.ok());
  REQUIRE(writer.anchors == 2);
  REQUIRE(writer.notes.size() == 1);  // the MEMBAR.ALL.CTA before MEMBAR.ALL.GPU only strengthens
  const SassVerdict reader = check(hw, listing, 1);
  REQUIRE(reader.ok());
  REQUIRE(reader.anchors == 2);
}

TEST_CASE("a lost access is refused", "[validate][sass]") {
  const std::string doctored = replaceLine(readData("MP+rel+acq.sass"), R"(LDG\.E\.64 R6, desc\[UR4\]\[R6\.64\] ;)", "MOV R6, RZ ;");
  const SassVerdict v = check(mp(), doctored, 1);
  REQUIRE_FALSE(v.ok());
  REQUIRE(mentions(v, "lost or merged"));
}

TEST_CASE("a weak load merged with another is refused", "[validate][sass]") {
  // CoRR: two weak loads of one location. ptxas may merge them when it can prove the addresses equal.
  const auto p = ptxmm::frontend::parseLitmus(R"(PTX CoRR-merge
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, x  ;
                | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
)", "corr.litmus");
  const HardwareTest hw = analyze(p, {"P1:r0", "P1:r1"});
  const std::string merged = R"(
		Function : ptxmm_role_1
        /*0000*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0010*/                   LDG.E.64 R4, desc[UR4][R4.64] ;
        /*0020*/                   MOV R6, R4 ;
        /*0030*/                   MOV R7, R5 ;
        /*0040*/                   RET.ABS.NODEC R20 0x0 ;
)";
  const SassVerdict v = check(hw, merged, 1);
  REQUIRE_FALSE(v.ok());
  REQUIRE(mentions(v, "lost or merged"));
}

TEST_CASE("a reordering is refused", "[validate][sass]") {
  // The weak load of x moved above the acquire load of y.
  std::string doctored = readData("MP+rel+acq.sass");
  const std::string acquire = "LDG.E.64.STRONG.GPU R4, desc[UR4][R4.64]", weak = "LDG.E.64 R6, desc[UR4][R6.64]";
  doctored.replace(doctored.find(weak), weak.size(), "%SWAP%");
  doctored.replace(doctored.find(acquire), acquire.size(), weak);
  doctored.replace(doctored.find("%SWAP%"), 6, acquire);
  const SassVerdict v = check(mp(), doctored, 1);
  REQUIRE_FALSE(v.ok());
  REQUIRE(mentions(v, "a different strength or scope"));  // where the acquire load was expected
  REQUIRE(mentions(v, "a strong access where a weak one was written"));
}

TEST_CASE("a missing release fence, acquire half or strength is refused", "[validate][sass]") {
  const std::string listing = readData("MP+rel+acq.sass");
  const auto noRelease = replaceLine(listing, R"(MEMBAR\.ALL\.GPU ;)", "NOP ;");
  REQUIRE(mentions(check(mp(), noRelease, 0), "no MEMBAR.ALL.GPU"));
  const auto noAcquire = replaceLine(listing, R"(CCTL\.IVALL ;)", "NOP ;");
  REQUIRE(mentions(check(mp(), noAcquire, 1), "no CCTL.IVALL"));
  const auto weakened = replaceLine(listing, R"(STG\.E\.64\.STRONG\.GPU)", "STG.E.64.STRONG.SM");
  REQUIRE(mentions(check(mp(), weakened, 0), "a different strength or scope"));
}

TEST_CASE("warp-collective instructions are refused", "[validate][sass]") {
  const auto aggregated = replaceLine(readData("MP+rel+acq.sass"), R"(YIELD ;)", "MATCH.ANY.U64 R2, R4 ;");
  REQUIRE(mentions(check(mp(), aggregated, 1), "warp-collective"));
}

TEST_CASE("a load hoisted out of its litmus loop is refused", "[validate][sass]") {
  const auto p = ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/MP+spin+acq.litmus");
  const HardwareTest hw = analyze(p, {"P1:r1"});
  // The spin load in the loop [0x10, 0x40] passes; the same load before the loop does not.
  const std::string inLoop = R"(
		Function : ptxmm_role_1
        /*0000*/                   ULDC.64 UR4, c[0x0][0x208] ;
        /*0010*/                   LDG.E.64.STRONG.GPU R4, desc[UR4][R4.64] ;
        /*0020*/                   CCTL.IVALL ;
        /*0030*/                   ISETP.NE.U32.AND P0, PT, R4, RZ, PT ;
        /*0040*/              @!P0 BRA 0x10 ;
        /*0050*/                   LDG.E.64 R6, desc[UR4][R6.64] ;
        /*0060*/                   RET.ABS.NODEC R20 0x0 ;
)";
  const SassVerdict good = check(hw, inLoop, 1);
  INFO((good.problems.empty() ? "" : good.problems[0]));
  REQUIRE(good.ok());
  const std::string hoisted = replaceLine(inLoop, R"(BRA 0x10)", "BRA 0x30");
  REQUIRE(mentions(check(hw, hoisted, 1), "outside the loop"));
}

TEST_CASE("the real SASS of Hopper-era tests passes", "[validate][sass]") {
  const HardwareTest mbar = hopperCase("HOP+mbar-arrive-rel+wait-acq", {"P1:r0"});
  const std::string mbarSass = readData("HOP+mbar-arrive-rel+wait-acq.sass");
  const SassVerdict init = check(mbar, mbarSass, 0);  // init (FENCE.VIEW.ASYNC.S; SYNCS.EXCH.64), BAR, STS, SYNCS.ARRIVE
  INFO((init.problems.empty() ? "" : init.problems[0]));
  REQUIRE(init.ok());
  REQUIRE(init.anchors == 5);
  const SassVerdict wait = check(mbar, mbarSass, 1);  // BAR, SYNCS.PHASECHK.TRANS64.TRYWAIT in the spin loop, LDS
  INFO((wait.problems.empty() ? "" : wait.problems[0]));
  REQUIRE(wait.ok());
  REQUIRE(wait.anchors == 3);

  const HardwareTest tma = hopperCase("HOP+tma-load+mbar", {"P1:r0"});
  const std::string tmaSass = readData("HOP+tma-load+mbar.sass");
  const SassVerdict load = check(tma, tmaSass, 0);  // UTMALDG.1D inside its ELECT / BRA.U.ANY waterfall loop
  INFO((load.problems.empty() ? "" : load.problems[0]));
  REQUIRE(load.ok());

  const HardwareTest cluster = hopperCase("HOP+cluster-barrier-default-pull+gmem", {"P1:r0", "P1:r1"});
  const std::string clusterSass = readData("HOP+cluster-barrier-default-pull+gmem.sass");
  const SassVerdict pull = check(cluster, clusterSass, 1);  // WARPSYNC.COLLECTIVE copies skipped; the two weak loads swapped
  INFO((pull.problems.empty() ? "" : pull.problems[0]));
  REQUIRE(pull.ok());
  REQUIRE(std::any_of(pull.notes.begin(), pull.notes.end(), [](const std::string& n) { return n.find("reordered") != std::string::npos; }));
  REQUIRE(check(cluster, clusterSass, 0).ok());
}

TEST_CASE("a different mbarrier operation or a stray ELECT is refused", "[validate][sass]") {
  const HardwareTest mbar = hopperCase("HOP+mbar-arrive-rel+wait-acq", {"P1:r0"});
  const auto testWait = replaceLine(readData("HOP+mbar-arrive-rel+wait-acq.sass"), R"(SYNCS\.PHASECHK\.TRANS64\.TRYWAIT)",
                                    "SYNCS.PHASECHK.TRANS64");
  REQUIRE(mentions(check(mbar, testWait, 1), "no .TRYWAIT"));
  const auto remote = replaceLine(readData("HOP+mbar-arrive-rel+wait-acq.sass"), R"(SYNCS\.ARRIVE\.TRANS64\.A1T0)",
                                  "SYNCS.ARRIVE.TRANS64.RED.A1T0");
  REQUIRE(mentions(check(mbar, remote, 0), ".RED"));
  const HardwareTest tma = hopperCase("HOP+tma-load+mbar", {"P1:r0"});
  const auto stray = replaceLine(readData("HOP+tma-load+mbar.sass"), R"(WARPSYNC\.ALL ;)", "ELECT P2, URZ, PT ;");
  REQUIRE(mentions(check(tma, stray, 0), "warp-collective"));
}
