// --graph end to end: a test file checked with drawings turned into DOT (and SVG) files, also into a folder
// whose name a shell would take apart.
#include <catch2/catch.hpp>

#include <filesystem>

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
  const auto dir = std::filesystem::temp_directory_path() / "ptxmm-graphs";
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
