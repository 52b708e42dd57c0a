// The nvlitmus `ld r0, [flag] == v` form through the explicit engine: the await keeps only the executions that
// read v, so `assert` quantifies over those executions only.
#include <catch2/catch.hpp>

#include "checker/ExplicitEngine.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::frontend;
using namespace ptxmm::testing;

TEST_CASE("an assert over == v quantifies only over the executions reading v", "[checker][nvlitmus]") {
  const auto& model = ptxModel();
  auto verdict = [&](const std::string& text) {
    const Program program = parseNvLitmus(text, "dir/t.test")[0].program;
    return checker::ExplicitEngine(model, {}).run(program, unroll(program, {})).holds;
  };
  auto mp = [](const std::string& await, const std::string& verdict) {
    return ".global x;\n.global flag;\n"
           "d0.b0.t0 { st [x], 2; st.release.gpu [flag], 1; }\n"
           "d0.b1.t0 { ld.acquire.gpu r0, [flag]" + await + "; ld r1, [x]; }\n" + verdict + ";\n";
  };
  CHECK(verdict(mp(" == 1", "assert (r1 == 2)")));        // MP: forbidden once the flag is seen
  CHECK_FALSE(verdict(mp("", "assert (r1 == 2)")));       // without the await r1 may be 0
  CHECK_FALSE(verdict(mp(" == 1", "permit (r0 == 0)")));  // no kept execution reads 0
  CHECK(verdict(mp(" == 0", "permit (r0 == 0)")));
}

