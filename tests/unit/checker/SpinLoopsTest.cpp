// The spin-loop rule both engines apply (SpinLoops.hpp): writes and barrier arrivals or waits make a loop
// iteration observable, reads and fences do not, and so does an assignment to a register live at the loop's head;
// and the two engines agree on a loop that writes nothing, one that writes, and one that counts its iterations.
#include <catch2/catch.hpp>

#include "checker/Differential.hpp"
#include "checker/SpinLoops.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;

namespace {

model::Event tagged(std::initializer_list<model::Tag> tags) {
  model::Event e;
  for (auto t : tags) e.tags |= model::tagBit(t);
  return e;
}

}  // namespace

TEST_CASE("what makes a loop iteration observable", "[checker][spin]") {
  CHECK(checker::observableEvent(tagged({model::Tag::W})));
  CHECK(checker::observableEvent(tagged({model::Tag::R, model::Tag::W})));  // an RMW writes
  CHECK(checker::observableEvent(tagged({model::Tag::BA})));
  CHECK(checker::observableEvent(tagged({model::Tag::BW})));
  CHECK_FALSE(checker::observableEvent(tagged({model::Tag::R})));
  CHECK_FALSE(checker::observableEvent(tagged({model::Tag::F})));
  model::LoopInfo loop;
  loop.liveAtHeader = {2};
  CHECK(checker::observableAssignment(loop, 2));
  CHECK_FALSE(checker::observableAssignment(loop, 1));
}

TEST_CASE("the engines agree on spin loops that write, count or only read", "[checker][spin]") {
  const char* body[] = {
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n beq r0, 0, LC | ;\n",
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n st.relaxed.gpu y, 1 | ;\n beq r0, 0, LC | ;\n",
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n add r1, r1, 1 | ;\n beq r0, 0, LC | ;\n",
  };
  for (const char* code : body) {
    const std::string text = std::string("PTX spin\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n") + code +
                              "exists (P0:r0 == 1)\n";
    INFO(text);
    const auto c = checker::compareEngines(ptxModel(), frontend::parseLitmus(text, "spin.litmus"), {});
    CHECK_FALSE(c.inconclusive);
    CHECK(c.difference.empty());
  }
}
