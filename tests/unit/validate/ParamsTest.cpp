// Parameter spaces: the built-in one parses, a seed always draws the same set from it, and malformed text is
// refused with its source's name.
#include <catch2/catch.hpp>

#include "model/Diagnostic.hpp"
#include "validate/Params.hpp"

using namespace ptxmm::validate;

TEST_CASE("the built-in parameter space draws reproducibly", "[validate][params]") {
  const ParamSpace space = defaultParamSpace();
  REQUIRE(space.values.size() >= 10);
  const ParamSet a = drawParams(space, 42), b = drawParams(space, 42);
  REQUIRE(a == b);
  for (const auto& [name, value] : a) {
    const auto row = std::find_if(space.values.begin(), space.values.end(), [&](const auto& r) { return r.first == name; });
    REQUIRE(row != space.values.end());
    REQUIRE(std::find(row->second.begin(), row->second.end(), value) != row->second.end());
  }
  bool differs = false;
  for (std::uint64_t s = 1; s < 20 && !differs; ++s) differs = drawParams(space, s) != a;
  REQUIRE(differs);
}

TEST_CASE("a tuned set is a space with one value per parameter", "[validate][params]") {
  const ParamSet set = {{"warps_per_block", 8}, {"spin_cap", 100}};
  const auto j = fixedSpaceJson(set, "test");
  REQUIRE(j["parameters"]["warps_per_block"] == nlohmann::json::array({8}));
  REQUIRE(paramsJson(set)["spin_cap"] == 100);
}

TEST_CASE("malformed parameter text is refused with its source", "[validate][params]") {
  REQUIRE_THROWS_AS(parseParamSpace(R"({"parameters": {"warps_per_block": []}})", "p.json"), ptxmm::model::UserError);
  REQUIRE_THROWS_WITH(parseParamSpace("not json", "p.json"), Catch::Contains("p.json"));
}
