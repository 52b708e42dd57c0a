// Programs far larger than litmus tests, generated here: the engines walk them without recursion per instruction
// (a recursive walk overflows the stack at a few thousand levels) and answer.
#include <catch2/catch.hpp>

#include <string>

#include "checker/ExplicitEngine.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;

namespace {

// One thread: r0 := a value read from x, then `n` times r0 := r0 + 1, stored to y.
std::string longThread(int n) {
  std::string text = "PTX LONG\n{ x=1; y=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n";
  for (int i = 0; i < n; ++i) text += " add r0, r0, 1 ;\n";
  return text + " st.weak y, r0 ;\nexists (y == " + std::to_string(n + 1) + ")\n";
}

}  // namespace

TEST_CASE("a thread of 20,000 instructions, in both engines", "[checker][large]") {
  const auto program = frontend::parseLitmus(longThread(20000), "long.litmus");
  const auto graph = frontend::unroll(program, {2});
  const auto explicitResult = checker::ExplicitEngine(ptxModel(), {}).run(program, graph);
  REQUIRE(explicitResult.status == Status::Ok);
  CHECK(explicitResult.holds);
  const auto z3Result = checker::Z3Engine(ptxModel(), {}).run(program, graph);
  REQUIRE(z3Result.status == Status::Ok);
  CHECK(z3Result.holds);
}
