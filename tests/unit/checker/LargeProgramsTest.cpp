// Programs far larger than litmus tests, generated here: the engines walk them without recursion per instruction
// (a recursive walk overflows the stack at a few thousand levels) and answer.
#include <catch2/catch.hpp>

#include <string>

#include "checker/ExplicitEngine.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/LitmusWriter.hpp"
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

TEST_CASE("a condition of 200,000 conjuncts, in both engines and the writer", "[checker][large][heavy]") {
  // Message passing whose condition repeats `x == 1` (true in every final state): parsing, evaluation, the Z3
  // formula, the written text and destruction all walk a chain as deep as it is long (issue 16 C1).
  std::string text =
      "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0";
  for (int i = 0; i < 200000; ++i) text += " /\\ x == 1";
  text += ")\n";
  const auto program = frontend::parseLitmus(text, "long-condition.litmus");
  const auto graph = frontend::unroll(program, {2});
  const auto explicitResult = checker::ExplicitEngine(ptxModel(), {}).run(program, graph);
  REQUIRE(explicitResult.status == Status::Ok);
  CHECK_FALSE(explicitResult.holds);
  const auto z3Result = checker::Z3Engine(ptxModel(), {}).run(program, graph);
  REQUIRE(z3Result.status == Status::Ok);
  CHECK_FALSE(z3Result.holds);
  const std::string written = frontend::writeLitmus(program);
  CHECK(frontend::parseLitmus(written, "written.litmus").condition.text.size() == program.condition.text.size());
}
