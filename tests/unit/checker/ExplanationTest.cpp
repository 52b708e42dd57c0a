// Races, explanations and drawn executions end to end, in both engines where both apply.
#include <catch2/catch.hpp>

#include "checker/TestRunner.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::RunOptions;
using checker::Status;
using checker::TestResult;

namespace {

TestResult check(const std::string& text, const RunOptions& options) {
  return checker::checkProgram(ptxModel(), frontend::parseLitmus(text, "inline.litmus"), options);
}

const std::string kMP =
    "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

}  // namespace

TEST_CASE("races are found with their kind in both engines", "[checker][races]") {
  const std::string scope =
      "PTX S\n{ x=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | LC: ;\n"
      " st.release.cta f, 1 | ld.acquire.cta r0, f ;\n | beq r0, 0, LC ;\n | ld.weak r1, x ;\nexists (P1:r1 == 0)\n";
  for (const std::string engine : {"explicit", "z3"}) {
    RunOptions o;
    o.engine = engine;
    o.engineOptions.races = true;
    const TestResult r = check(scope, o);
    REQUIRE(r.racesChecked);
    std::set<std::string> kinds;
    for (const auto& race : r.races) kinds.insert(race.kind);
    // The cta-scoped flag is not morally strong across CTAs; without sync the data race follows.
    REQUIRE(kinds == std::set<std::string>{"scope too narrow", "no synchronisation"});
  }
  std::string fixed = scope;
  for (auto p = fixed.find(".cta f"); p != std::string::npos; p = fixed.find(".cta f")) fixed.replace(p, 4, ".gpu");
  fixed.replace(fixed.find("ld.acquire.cta"), 14, "ld.acquire.gpu");
  RunOptions o;
  o.engineOptions.races = true;
  const TestResult r = check(fixed, o);
  REQUIRE(r.racesChecked);
  REQUIRE(r.races.empty());
}

TEST_CASE("--explain names Causality for MP and shows the cycle through sw", "[checker][explain]") {
  for (const std::string engine : {"explicit", "z3"}) {
    RunOptions o;
    o.engine = engine;
    o.explain = true;
    const TestResult r = check(kMP, o);
    REQUIRE(r.explanation);
    REQUIRE(r.explanation->minimalSets == std::vector<std::vector<std::string>>{{"Causality"}});
    REQUIRE(r.explanation->violations.size() == 1);
    const auto& v = r.explanation->violations[0];
    REQUIRE(v.check == "Causality");
    REQUIRE_THAT(v.steps, Catch::Contains("-fr->") && Catch::Contains("-cause->"));
    REQUIRE(v.detail.size() == 2);
    REQUIRE_THAT(v.detail[1], Catch::Contains("sw"));
  }
}

TEST_CASE("a permitted outcome is explained by an execution reaching it, in both engines", "[checker][explain]") {
  std::string weak = kMP;
  weak.replace(weak.find("st.release.gpu"), 14, "st.weak");
  for (const std::string engine : {"explicit", "z3"}) {
    RunOptions o;
    o.engine = engine;
    o.explain = true;
    const TestResult r = check(weak, o);
    REQUIRE(r.explanation);
    CHECK(r.explanation->allowed);
    CHECK(r.explanation->targetText == "(P1:r0 == 1 /\\ P1:r1 == 0)");
    CHECK(r.explanation->minimalSets.empty());
    CHECK(r.explanation->violations.empty());
    // The outcome asked about: r0 reads P0's y = 1, r1 reads the initial x = 0.
    CHECK_THAT(r.explanation->execution, Catch::Contains("R y = 1  from e") && Catch::Contains("R x = 0  from init x"));
  }
  // forall asks whether the proposition can fail: the execution shown is one where it does.
  std::string forall = weak;
  const std::string exists = "exists (P1:r0 == 1 /\\ P1:r1 == 0)";
  forall.replace(forall.find(exists), exists.size(), "forall (P1:r1 == 1)");
  RunOptions o;
  o.explain = true;
  const TestResult r = check(forall, o);
  REQUIRE(r.explanation);
  CHECK(r.explanation->allowed);
  CHECK(r.explanation->targetText == "~(P1:r1 == 1)");
  CHECK_THAT(r.explanation->execution, Catch::Contains("R x = 0"));
}

TEST_CASE("drawing shows the forbidden execution highlighted, or one DOT graph per permitted state", "[checker][graph]") {
  RunOptions o;
  o.explain = true;
  o.draw = checker::Show::Forbidden;
  const TestResult forbidden = check(kMP, o);
  REQUIRE(forbidden.drawings.size() == 1);
  REQUIRE(forbidden.drawings[0].file == "MP-forbidden");
  REQUIRE_THAT(forbidden.drawings[0].dot,
               Catch::Contains("digraph") && Catch::Contains("color=red") && Catch::Contains("cluster_P1"));
  o.draw = checker::Show::All;
  std::set<std::string> files;
  for (const auto& d : check(kMP, o).drawings) files.insert(d.file);
  REQUIRE(files == std::set<std::string>{"MP-0", "MP-1", "MP-2"});  // three permitted states
  o.draw.reset();
  REQUIRE(check(kMP, o).drawings.empty());
}
