// End-to-end tests of the explicit engine on small inline tests: permitted state sets, spin loops as awaits,
// honest UNKNOWN at the unrolling bound and for thin-air values, partial coherence, failed CAS, barriers.
#include <catch2/catch.hpp>

#include <set>

#include "checker/ExplicitEngine.hpp"
#include "checker/ResultPrinter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;
using checker::TestResult;

namespace {

TestResult check(const std::string& text, int unroll = 2, const model::CatModel& cat = ptxModel()) {
  const auto program = frontend::parseLitmus(text, "inline.litmus");
  const auto graph = frontend::unroll(program, {unroll});
  return checker::ExplicitEngine(cat, {}).run(program, graph);
}

}  // namespace

TEST_CASE("message passing: release/acquire forbids the stale read, weak flags do not", "[checker][explicit]") {
  const std::string mp =
      "PTX MP\n{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x ;\n"
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
  const TestResult strong = check(mp);
  REQUIRE(strong.status == Status::Ok);
  REQUIRE_FALSE(strong.holds);
  REQUIRE(states(strong) == std::set<std::string>{"P1:r0=0 P1:r1=0", "P1:r0=0 P1:r1=1", "P1:r0=1 P1:r1=1"});
  std::string weak = mp;
  weak.replace(weak.find("st.release.gpu"), 14, "st.weak");
  weak.replace(weak.find("ld.acquire.gpu"), 14, "ld.weak");
  REQUIRE(check(weak).holds);
  REQUIRE(check(weak).flags.count("DataRace"));
}

TEST_CASE("a spin loop contributes only its exiting iteration", "[checker][explicit]") {
  const std::string spin =
      "PTX spin\n{ x=0; f=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1 | LC00: ;\n"
      " st.release.gpu f, 1 | ld.acquire.gpu r0, f ;\n"
      " | beq r0, 0, LC00 ;\n"
      " | ld.weak r1, x ;\n"
      "exists (P1:r1 == 0)\n";
  for (int unroll : {1, 2, 3}) {
    const TestResult r = check(spin, unroll);
    REQUIRE(r.status == Status::Ok);
    REQUIRE(states(r) == std::set<std::string>{"P1:r1=1"});
  }
}

TEST_CASE("a loop with side effects beyond the bound is UNKNOWN, within it decided", "[checker][explicit]") {
  const std::string counter =
      "PTX counter\n{ c=0; }\n"
      " P0@cta 0,gpu 0 ;\n"
      " LC00: ;\n"
      " atom.add r0, c, 1 ;\n"
      " bne r0, 3, LC00 ;\n"
      "forall (c == 4)\n";
  const TestResult bounded = check(counter, 3);
  REQUIRE(bounded.status == Status::Unknown);
  REQUIRE_THAT(bounded.reason, Catch::Contains("--unroll"));
  const TestResult enough = check(counter, 4);
  REQUIRE(enough.status == Status::Ok);
  REQUIRE(enough.holds);
  REQUIRE(states(enough) == std::set<std::string>{"c=4"});
}

TEST_CASE("dependency cycles are forbidden by No-Thin-Air, and UNKNOWN under a model without it",
          "[checker][explicit]") {
  const std::string lb =
      "PTX LB\n{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " ld.weak r0, x | ld.weak r1, y ;\n"
      " st.weak y, r0 | st.weak x, r1 ;\n"
      "exists (P0:r0 == 42)\n";
  const TestResult r = check(lb);
  REQUIRE(r.status == Status::Ok);
  REQUIRE(states(r) == std::set<std::string>{"P0:r0=0"});
  const model::CatModel anything = model::parseCat("let nothing = 0\n", "anything.cat");
  const TestResult loose = check(lb, 2, anything);
  REQUIRE(loose.status == Status::Unknown);
  REQUIRE_THAT(loose.reason, Catch::Contains("thin air"));
}

TEST_CASE("racing weak writes may stay unordered: either is a final value", "[checker][explicit]") {
  const TestResult r = check(
      "PTX 2W\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak x, 2 ;\nexists (x == 1)\n");
  REQUIRE(states(r) == std::set<std::string>{"x=1", "x=2"});
}

TEST_CASE("a failed compare-and-swap writes nothing", "[checker][explicit]") {
  const TestResult r =
      check("PTX cas\n{ m=0; }\n P0@cta 0,gpu 0 ;\n atom.cas r0, m, 5, 7 ;\nforall (m == 0 /\\ P0:r0 == 0)\n");
  REQUIRE(r.holds);
  REQUIRE(states(r) == std::set<std::string>{"P0:r0=0 m=0"});
}

TEST_CASE("barrier deadlocks and incomplete generations leave no execution", "[checker][explicit]") {
  const TestResult crossed = check(
      "PTX crossed\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " bar.cta.sync 0 | bar.cta.sync 1 ;\n bar.cta.sync 1 | bar.cta.sync 0 ;\n"
      " ld.weak r0, x | ;\n~exists (P0:r0 == 0)\n");
  REQUIRE(crossed.states.empty());
  REQUIRE(crossed.holds);
  REQUIRE_FALSE(crossed.notes.empty());
  const TestResult three = check(
      "PTX three\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
      " bar.sync 1, 64 | bar.sync 1, 64 | bar.sync 1, 64 ;\nexists (x == 0)\n");
  REQUIRE(three.states.empty());
}

TEST_CASE("arrive then sync with counts orders the producer's write", "[checker][explicit]") {
  const TestResult r = check(
      "PTX PC\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " st.weak x, 1 | bar.sync 1, 64 ;\n bar.arrive 1, 64 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n");
  REQUIRE(r.status == Status::Ok);
  REQUIRE_FALSE(r.holds);
}
