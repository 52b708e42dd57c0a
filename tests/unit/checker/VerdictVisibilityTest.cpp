// A claim that holds because no execution exists at all (issue 16 D5) and a check that stopped before deciding
// (UNKNOWN) must not be reported as an ordinary pass or as a failure.
#include <catch2/catch.hpp>

#include "checker/Expectation.hpp"
#include "checker/ExplicitEngine.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;
using checker::Verdict;

namespace {

// The acquire load is assumed to read 7, which nothing writes: no execution exists, and the assertion
// (nvlitmus: forall) holds vacuously.
const char* kVacuous = R"(.global x;
.global flag;
d0.b0.t0 {
  st.weak [x], 1;
  st.release.gpu [flag], 1;
}
d0.b1.t0 {
  ld.acquire.gpu r0, [flag] == 7;
  ld.weak r1, [x];
}
assert (r0 == 99) as vacuous;
)";

}  // namespace

TEST_CASE("both engines say when no execution exists, also when one query decides the claim", "[checker]") {
  const auto tests = frontend::parseNvLitmus(kVacuous, "vacuous.test");
  REQUIRE(tests.size() == 1);
  const frontend::Program& program = tests.front().program;
  const auto graph = frontend::unroll(program, {2});
  for (bool listStates : {true, false}) {
    checker::EngineOptions options;
    options.listStates = listStates;
    const auto z3 = checker::Z3Engine(ptxModel(), options).run(program, graph);
    REQUIRE(z3.status == Status::Ok);
    CHECK(z3.holds);
    CHECK(z3.noExecution);
  }
  const auto explicitResult = checker::ExplicitEngine(ptxModel(), {}).run(program, graph);
  REQUIRE(explicitResult.status == Status::Ok);
  CHECK(explicitResult.noExecution);

  checker::Expectation holds{"vacuous.test", true, std::nullopt, std::nullopt, {}, nullptr};
  const checker::Judgement j = checker::judge(holds, explicitResult, {});
  CHECK(j.verdict == Verdict::Pass);
  CHECK_THAT(j.explanation, Catch::Contains("vacuous"));
}

TEST_CASE("an UNKNOWN result is judged UNKNOWN, not a failure", "[checker]") {
  checker::TestResult unknown;
  unknown.status = Status::Unknown;
  unknown.reason = "timeout after 1 s";
  checker::Expectation e{"t.litmus", true, std::nullopt, std::nullopt, {}, nullptr};
  const checker::Judgement j = checker::judge(e, unknown, {});
  CHECK(j.verdict == Verdict::Unknown);
  CHECK_THAT(j.explanation, Catch::Contains("timeout after 1 s"));
  checker::TestResult ordinary;
  ordinary.holds = true;
  CHECK(checker::judge(e, ordinary, {}).explanation.empty());
}
