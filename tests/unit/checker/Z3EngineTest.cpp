// The Z3 engine's own guarantees, beyond agreeing with the explicit engine (CTest engines-agree-*): --timeout
// bounds the whole test, a stopped run is reported as such, and neither the seed nor the tests run before in
// the same thread (which share its Z3 context) change a result.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "checker/ResultPrinter.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;
using checker::TestResult;

namespace {

TestResult check(const std::string& text, checker::EngineOptions options = {}) {
  const auto program = frontend::parseLitmus(text, "inline.litmus");
  const auto graph = frontend::unroll(program, {2});
  return checker::Z3Engine(ptxModel(), options).run(program, graph);
}

// IRIW with n-2 readers, each with a fence.sc between its loads: thousands of permitted states, so listing
// them takes thousands of solver calls, each far below any sensible per-call limit.
std::string iriwSc(int n) {
  std::string header, rows[3], seen;
  for (int i = 0; i < n; ++i) {
    const std::string sep = i ? " | " : " ";
    header += sep + "P" + std::to_string(i) + "@cta " + std::to_string(i) + ",gpu 0";
    const bool writer = i < 2, even = i % 2 == 0;
    rows[0] += sep + (writer ? std::string("st.relaxed.gpu ") + (i == 0 ? "x" : "y") + ", 1"
                             : std::string("ld.relaxed.gpu r0, ") + (even ? "x" : "y"));
    rows[1] += sep + (writer ? "" : "fence.sc.gpu");
    rows[2] += sep + (writer ? "" : std::string("ld.relaxed.gpu r1, ") + (even ? "y" : "x"));
    const std::string p = "P" + std::to_string(i);
    if (!writer) seen += (seen.empty() ? "" : " /\\ ") + p + ":r0 == 1 /\\ " + p + ":r1 == 0";
  }
  return "PTX IRIW-sc\n{ x=0; y=0; }\n" + header + " ;\n" + rows[0] + " ;\n" + rows[1] + " ;\n" + rows[2] +
         " ;\nexists (" + seen + ")\n";
}

const std::string kMessagePassing =
    "PTX MP\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1 | ld.weak r1, x ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

}  // namespace

TEST_CASE("--timeout limits the whole test, not each solver call", "[checker][z3]") {
  checker::EngineOptions limits;
  limits.timeoutSeconds = 0.2;
  const TestResult r = check(iriwSc(8), limits);
  INFO(r.reason);
  REQUIRE(r.status == Status::Unknown);
  CHECK(r.resourceLimit);
  // On a loaded machine (or under ASan) the limit can already pass while the test is encoded: the reason then
  // says so after the same words.
  CHECK(r.reason.rfind("timeout after 0.2 s", 0) == 0);
  CHECK(r.seconds < 5);  // the unbounded run lists 2727 states and takes seconds; this one stops near 0.2 s
}

TEST_CASE("a stopped run's listing says it is incomplete and concludes nothing", "[checker][z3]") {
  checker::EngineOptions limits;
  limits.timeoutSeconds = 0.2;
  const std::string text = checker::toHerdText(check(iriwSc(8), limits));
  CHECK(text.find("(incomplete: the run stopped, see Reason)") != std::string::npos);
  CHECK(text.find("\nUnknown\n") != std::string::npos);
  CHECK(text.find("Observation IRIW-sc Unknown ") != std::string::npos);
  CHECK(text.find(" Never ") == std::string::npos);
}

TEST_CASE("results depend neither on the seed nor on the tests checked before in the thread", "[checker][z3]") {
  const TestResult first = check(kMessagePassing);
  REQUIRE(first.status == Status::Ok);
  REQUIRE(states(first) == std::set<std::string>{"P1:r0=0 P1:r1=0", "P1:r0=0 P1:r1=1", "P1:r0=1 P1:r1=1"});
  const TestResult other = check(iriwSc(4));  // same thread, same Z3 context, other terms and names
  REQUIRE(other.status == Status::Ok);
  for (unsigned seed : {1u, 7u, 12345u}) {
    checker::EngineOptions options;
    options.seed = seed;
    const TestResult again = check(kMessagePassing, options);
    CHECK(states(again) == states(first));
    CHECK(again.holds == first.holds);
  }
  CHECK(states(check(iriwSc(4))) == states(other));
}
