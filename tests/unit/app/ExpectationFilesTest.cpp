// Expectation files: the four columns, malformed lines located, shards.
#include <catch2/catch.hpp>

#include "app/ExpectationFiles.hpp"
#include "app/SuiteRunner.hpp"
#include "unit/app/AppTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;

TEST_CASE("expectation files: four columns, malformed lines located", "[app][suite]") {
  const auto ok = writeTemp("e.expect", "# comment\na.litmus,1\nb.litmus,0,P0:r0=1;P0:r0=2\nc.litmus,1,,race-free\n");
  const auto e = app::readExpectations(ok);
  REQUIRE(e.size() == 3);
  REQUIRE_FALSE(e[0].states);
  REQUIRE(e[1].states->size() == 2);
  REQUIRE_FALSE(e[2].states);
  REQUIRE(e[2].racy == std::optional<bool>(false));
  REQUIRE_THROWS_WITH(app::readExpectations(writeTemp("bad.expect", "a.litmus,1\nb.litmus,2\n")),
                      Catch::Contains("bad.expect:2:") && Catch::Contains("1 or 0"));
  REQUIRE(app::shardOf(e, 2, 2).size() == 1);
  REQUIRE(app::shardOf(e, 1, 2).size() == 2);
}
