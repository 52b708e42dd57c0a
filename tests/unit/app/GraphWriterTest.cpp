// --graph end to end: a test file checked with drawings turned into DOT (and SVG) files, also into a folder
// whose name a shell would take apart.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "app/TestFiles.hpp"
#include "unit/app/AppTestSupport.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;

namespace {

const std::string kMP =
    "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
    " st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

}  // namespace

TEST_CASE("--graph writes a DOT file per shown execution", "[app][graph]") {
  const auto dir = tempPath("graphs");
  std::filesystem::remove_all(dir);
  checker::RunOptions o;
  o.explain = true;
  o.draw = checker::Show::Forbidden;
  const checker::TestResult r = app::checkFile(ptxModel(), writeTemp("mpg.litmus", kMP), o, dir.string());
  const auto dot = dir / "MP-forbidden.dot";
  REQUIRE(std::filesystem::exists(dot));
  REQUIRE_THAT(readAll(dot), Catch::Contains("digraph") && Catch::Contains("color=red") && Catch::Contains("cluster_P1"));
  o.draw = checker::Show::All;
  app::checkFile(ptxModel(), writeTemp("mpg.litmus", kMP), o, dir.string());
  REQUIRE(std::filesystem::exists(dir / "MP-2.dot"));  // three permitted states: MP-0, MP-1, MP-2
}

TEST_CASE("a --graph folder with quotes, $() and spaces is a folder name, never shell text", "[app][graph]") {
  const auto base = tempPath("hostile-graph");
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  const auto marker = base / "pwned";
  // Pasted into a shell command line, this name would end the quoting and run `touch` on the marker.
  const auto dir = base / ("g' \"$(touch " + marker.string() + ")\" `touch " + marker.string() + "` ;x");
  checker::RunOptions o;
  o.draw = checker::Show::All;
  const checker::TestResult r = app::checkFile(ptxModel(), writeTemp("mph.litmus", kMP), o, dir.string());
  REQUIRE(std::filesystem::exists(dir / "MP-0.dot"));
  REQUIRE_FALSE(std::filesystem::exists(marker));
  // Each drawn execution is noted with the file written: the SVG when Graphviz rendered it into that folder.
  REQUIRE(r.notes.size() == 3);
  for (const auto& note : r.notes) {
    REQUIRE_THAT(note, Catch::StartsWith("graph: " + dir.string() + "/MP-"));
    REQUIRE(std::filesystem::exists(note.substr(7)));
  }
  std::filesystem::remove_all(base);
}

TEST_CASE("a race witness marks the two racing accesses; an allowed outcome's --explain execution is drawn",
          "[app][graph]") {
  const auto dir = tempPath("graphs-race");
  std::filesystem::remove_all(dir);
  checker::RunOptions o;
  o.engineOptions.races = true;
  o.draw = checker::Show::All;
  const checker::TestResult r = app::checkFile(ptxModel(), writeTemp("mpr.litmus", kMP), o, dir.string());
  REQUIRE(r.races.size() == 1);  // st.weak x | ld.weak x: no synchronisation in the execution reading x = 0
  const std::string dot = readAll(dir / "MP-race-0.dot");
  CHECK_THAT(dot, Catch::Contains("[label=\"race: no synchronisation\", color=red"));
  // Both racing accesses, and no other event, are framed in red.
  std::istringstream lines(dot);
  int framed = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("    n", 0) == 0 && line.find("color=red, penwidth=2.5]") != std::string::npos) ++framed;
  CHECK(framed == 2);

  const std::string allowed =
      "PTX MPA\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 1)\n";
  o = {};
  o.explain = true;
  o.draw = checker::Show::Forbidden;
  const checker::TestResult e = app::checkFile(ptxModel(), writeTemp("mpa.litmus", allowed), o, dir.string());
  REQUIRE(e.explanation);
  CHECK(e.explanation->allowed);
  CHECK(e.explanation->targetText == "(P1:r0 == 1 /\\ P1:r1 == 1)");
  CHECK_THAT(e.explanation->execution, Catch::Contains("R x = 1  from e"));
  CHECK(e.explanation->violations.empty());
  CHECK(std::filesystem::exists(dir / "MPA-allowed.dot"));
}
