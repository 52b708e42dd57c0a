// The --assert reader: comparisons of terms (elements and constants under + - *), && || ! and parentheses that
// group either claims or terms; errors located in the option's text.
#include <catch2/catch.hpp>

#include <map>

#include "checker/kernel/KernelClaims.hpp"

namespace ptxmm::checker::kernel {
namespace {

bool holds(const std::string& text, const std::map<std::string, std::int64_t>& memory) {
  const ClaimPtr c = parseClaim(text, "--assert");
  return evaluateClaim(*c, [&](const ElementRef& e) { return memory.at(e.text); });
}

TEST_CASE("claims compare arithmetic terms of elements", "[checker][kernel][claims]") {
  const std::map<std::string, std::int64_t> m = {{"out[0]", 10}, {"out[1]", 22}, {"n[0]", 16}};
  CHECK(holds("out[0]+out[1]==32", m));
  CHECK(holds("out[0] + out[1] == 2*n[0]", m));
  CHECK(holds("(out[0]+1)*2==22", m));
  CHECK(holds("out[1]-out[0]-2==10", m));  // left-associative
  CHECK(holds("2+3*4==14", m));            // * binds tighter
  CHECK(holds("((out[0]==10) && (out[1]-2)*1==20) || out[0]==0", m));
  CHECK_FALSE(holds("!(out[0]+out[1]==32)", m));
  CHECK(holds("out[0]==-10*-1", m));
  const ClaimPtr c = parseClaim("out[1]-out[0]>=n[0]*0+out[1]", "--assert");
  const auto names = elementsOf(*c);
  REQUIRE(names.size() == 3);
  CHECK(names[0].text == "out[1]");
  CHECK(names[1].text == "out[0]");
  CHECK(names[2].text == "n[0]");
}

TEST_CASE("claim errors are located", "[checker][kernel][claims]") {
  CHECK_THROWS_WITH(parseClaim("(out[0]==1 || out[1]=2)", "--assert"), Catch::Contains("--assert:1:21: error: expected a comparison"));
  CHECK_THROWS_WITH(parseClaim("(out[0]+1==2", "--assert"), Catch::Contains("--assert:1:13: error: expected ')'"));
  CHECK_THROWS_WITH(parseClaim("out[0]+==2", "--assert"), Catch::Contains("--assert:1:8: error: expected a buffer element"));
  // deep nesting is read in linear time, not by trying each parenthesis both ways
  std::string deep = std::string(40, '(') + "out[0]" + std::string(40, ')') + "==1";
  CHECK(holds(deep, {{"out[0]", 1}}));
}

}  // namespace
}  // namespace ptxmm::checker::kernel
