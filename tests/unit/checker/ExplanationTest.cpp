// Races, explanations and witness graphs end to end, in both engines where both apply.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "checker/Suite.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::RunOptions;
using checker::Status;
using checker::TestResult;

namespace {

std::string writeTemp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "ptxmm-explain-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

const std::string kMP =
    "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

}  // namespace

TEST_CASE("races are found with their kind in both engines", "[checker][races]") {
  const std::string scope =
      "PTX S\n{ x=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | LC: ;\n"
      " st.release.cta f, 1 | ld.acquire.cta r0, f ;\n | beq r0, 0, LC ;\n | ld.weak r1, x ;\nexists (P1:r1 == 0)\n";
  const auto path = writeTemp("scope.litmus", scope);
  for (const std::string engine : {"explicit", "z3"}) {
    RunOptions o;
    o.engine = engine;
    o.limits.races = true;
    const TestResult r = checker::checkFile(ptxModel(), path, o);
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
  o.limits.races = true;
  const TestResult r = checker::checkFile(ptxModel(), writeTemp("fixed.litmus", fixed), o);
  REQUIRE(r.racesChecked);
  REQUIRE(r.races.empty());
}

TEST_CASE("--explain names Causality for MP and shows the cycle through sw", "[checker][explain]") {
  for (const std::string engine : {"explicit", "z3"}) {
    RunOptions o;
    o.engine = engine;
    o.explain = true;
    const TestResult r = checker::checkFile(ptxModel(), writeTemp("mp.litmus", kMP), o);
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

TEST_CASE("a permitted outcome has nothing to explain", "[checker][explain]") {
  std::string weak = kMP;
  weak.replace(weak.find("st.release.gpu"), 14, "st.weak");
  RunOptions o;
  o.explain = true;
  REQUIRE_FALSE(checker::checkFile(ptxModel(), writeTemp("weak.litmus", weak), o).explanation);
}

TEST_CASE("--graph writes a DOT file per shown execution", "[checker][graph]") {
  const auto dir = std::filesystem::temp_directory_path() / "ptxmm-graphs";
  std::filesystem::remove_all(dir);
  RunOptions o;
  o.explain = true;
  o.graphDir = dir.string();
  o.show = checker::Show::Forbidden;
  const TestResult r = checker::checkFile(ptxModel(), writeTemp("mpg.litmus", kMP), o);
  const auto dot = dir / "MP-forbidden.dot";
  REQUIRE(std::filesystem::exists(dot));
  std::ifstream in(dot);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_THAT(text, Catch::Contains("digraph") && Catch::Contains("color=red") && Catch::Contains("cluster_P1"));
  o.show = checker::Show::All;
  checker::checkFile(ptxModel(), writeTemp("mpg.litmus", kMP), o);
  REQUIRE(std::filesystem::exists(dir / "MP-2.dot"));  // three permitted states: MP-0, MP-1, MP-2
}

TEST_CASE("expectation files: four columns, malformed lines located", "[checker][suite]") {
  const auto ok = writeTemp("e.expect", "# comment\na.litmus,1\nb.litmus,0,P0:r0=1;P0:r0=2\nc.litmus,1,,race-free\n");
  const auto e = checker::readExpectations(ok);
  REQUIRE(e.size() == 3);
  REQUIRE_FALSE(e[0].states);
  REQUIRE(e[1].states->size() == 2);
  REQUIRE_FALSE(e[2].states);
  REQUIRE(e[2].racy == std::optional<bool>(false));
  REQUIRE_THROWS_WITH(checker::readExpectations(writeTemp("bad.expect", "a.litmus,1\nb.litmus,2\n")),
                      Catch::Contains("bad.expect:2:") && Catch::Contains("1 or 0"));
  REQUIRE(checker::shardOf(e, 2, 2).size() == 1);
  REQUIRE(checker::shardOf(e, 1, 2).size() == 2);
}
