// The engine comparison's thread-order check: reversing a test's threads keeps what every reference points at,
// and neither engine's answer changes with it.
#include <catch2/catch.hpp>

#include "checker/Differential.hpp"
#include "checker/ExplicitEngine.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

namespace ptxmm {
namespace {

using checker::TestResult;

// A message-passing test whose three threads are not interchangeable: P0 reads with an initial register value,
// P1 publishes, P2 only writes another location, and the condition reads P0's registers (P0 and P2 swap
// columns when reversed).
const char* kTest = R"(PTX MP+init
{ x=0; y=0; P0:r2=7; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;
 ld.acquire.gpu r0, y | st.weak x, 1 | st.relaxed.gpu z, 3 ;
 ld.weak r1, x | st.release.gpu y, 1 | ;
 add r1, r1, r2 | | ;
exists (P0:r0 == 1 /\ P0:r1 == 7 /\ z == 3)
)";

// The states as sets of `key=value`, whatever order the keys come in.
std::set<std::set<std::string>> keyedStates(const TestResult& r) {
  std::set<std::set<std::string>> out;
  for (const auto& s : r.states) {
    std::set<std::string> pairs;
    for (std::size_t k = 0; k < r.keys.size(); ++k) pairs.insert(r.keys[k] + "=" + std::to_string(s.values[k]));
    out.insert(pairs);
  }
  return out;
}

// The threads of the registers the condition reads.
void conditionThreads(const frontend::CondPtr& e, std::vector<int>& out) {
  if (!e) return;
  for (const auto* v : {&e->lhs, &e->rhs})
    if (v->kind == frontend::CondValue::Kind::Register) out.push_back(v->thread);
  conditionThreads(e->a, out);
  conditionThreads(e->b, out);
}

TEST_CASE("reversing the threads keeps every reference on the thread it named", "[checker][diff]") {
  const frontend::Program program = frontend::parseLitmus(kTest, "mp.litmus");
  const frontend::Program reversed = checker::withThreadsReversed(program);
  REQUIRE(reversed.threads.size() == 3);
  CHECK(reversed.threads[0].name == "P2");
  CHECK(reversed.threads[2].name == "P0");
  CHECK(reversed.threads[0].index == 0);
  CHECK(reversed.threads[0].cta == 2);
  REQUIRE(reversed.regInits.size() == 1);
  CHECK(reversed.threads[static_cast<std::size_t>(reversed.regInits[0].thread)].name == "P0");
  std::vector<int> threads;
  conditionThreads(reversed.condition.expr, threads);
  REQUIRE(threads.size() == 2);
  for (int t : threads) CHECK(reversed.threads.at(static_cast<std::size_t>(t)).name == "P0");
}

TEST_CASE("both engines permit the same states whichever order the threads are written in", "[checker][diff]") {
  const frontend::Program program = frontend::parseLitmus(kTest, "mp.litmus");
  const frontend::Program reversed = checker::withThreadsReversed(program);
  const auto& model = testing::ptxModel();
  checker::ExplicitEngine explicitEngine(model, {});
  checker::Z3Engine z3Engine(model, {});
  const TestResult written = explicitEngine.run(program, frontend::unroll(program, {2}));
  const TestResult explicitReversed = explicitEngine.run(reversed, frontend::unroll(reversed, {2}));
  const TestResult z3Reversed = z3Engine.run(reversed, frontend::unroll(reversed, {2}));
  REQUIRE(written.states.size() > 1);
  CHECK(keyedStates(explicitReversed) == keyedStates(written));
  CHECK(keyedStates(z3Reversed) == keyedStates(written));
  CHECK(explicitReversed.holds == written.holds);
  CHECK(z3Reversed.holds == written.holds);
}

TEST_CASE("the engine comparison includes the reversed order and finds no difference on a correct engine",
          "[checker][diff]") {
  const frontend::Program program = frontend::parseLitmus(kTest, "mp.litmus");
  const checker::EngineComparison c = checker::compareEngines(testing::ptxModel(), program, {});
  CHECK_FALSE(c.inconclusive);
  CHECK(c.difference.empty());
}

}  // namespace
}  // namespace ptxmm
