// Parameter files: missing and malformed ones are refused with the file's name.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "app/hardware/HardwareOptions.hpp"
#include "unit/app/AppTestSupport.hpp"
#include "model/Diagnostic.hpp"

TEST_CASE("malformed parameter files are refused", "[app][params]") {
  const std::string path = ptxmm::testing::tempPath("params-test.json").string();
  std::ofstream(path) << R"({"parameters": {"warps_per_block": []}})";
  REQUIRE_THROWS_AS(ptxmm::app::readParamSpace(path), ptxmm::model::UserError);
  std::ofstream(path) << "not json";
  REQUIRE_THROWS_WITH(ptxmm::app::readParamSpace(path), Catch::Contains(path));
  std::filesystem::remove(path);
}

TEST_CASE("a missing parameter file is refused with its name", "[app][params]") {
  REQUIRE_THROWS_WITH(ptxmm::app::readParamSpace("/nonexistent/params.json"), Catch::Contains("/nonexistent/params.json"));
}
