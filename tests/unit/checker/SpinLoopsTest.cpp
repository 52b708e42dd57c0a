// The spin-loop rule both engines apply (SpinLoops.hpp): writes that can change memory and barrier arrivals or
// waits make a loop iteration observable, RMW polls that write back what they read do not, an assignment to a
// register live at the loop's head does, a kernel's typed atomic that wraps its result is judged on values of its
// width; and the two engines agree on a loop that writes nothing, one that writes, one that counts its iterations,
// and loops whose RMW writes back what it read only for some values.
#include <catch2/catch.hpp>

#include "checker/Differential.hpp"
#include "checker/SpinLoops.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;

namespace {

// The write events of a one-thread test with `code`, and whether each makes a loop iteration observable.
std::vector<bool> observableWrites(const std::string& code) {
  const std::string text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n " + code + " ;\nexists (x == 0)\n";
  const auto graph = frontend::unroll(frontend::parseLitmus(text, "t.litmus"), {2});
  std::vector<bool> out;
  for (std::size_t e = graph.initCount(); e < graph.events.size(); ++e)
    if (graph.events[e].is(model::Tag::W)) out.push_back(checker::observableEvent(graph, static_cast<int>(e)));
  return out;
}

// A one-thread test with `code` on location x, unrolled.
model::EventGraph graphOf(const std::string& code) {
  const std::string text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n " + code + " ;\nexists (x == 0)\n";
  return frontend::unroll(frontend::parseLitmus(text, "t.litmus"), {2});
}

const int firstWrite = 2;  // the initial write of x, then the code's first two events: an RMW's read and write

}  // namespace

TEST_CASE("a kernel's typed atomic that wraps to 32 bits and adds 0 leaves memory unchanged", "[checker][spin]") {
  // The kernel reader gives `atom.add.u32 r, [x], 0` the value ((old + 0) << 32) >> 32: the identity on the
  // canonical 32-bit values its read returns, not on a 64-bit sample such as 0x123456789a.
  namespace value = model::value;
  auto graph = graphOf("atom.relaxed.gpu.add r0, x, 0");
  const model::ValuePtr old = graph.events[firstWrite].value;
  auto wrap = [](const model::ValuePtr& v, int k) {
    return value::apply(model::ValueOp::Shr, {value::apply(model::ValueOp::Shl, {v, value::constant(k)}), value::constant(k)});
  };
  graph.events[firstWrite].value = wrap(old, 32);
  CHECK(checker::unchangingWrite(graph, firstWrite));
  CHECK_FALSE(checker::observableEvent(graph, firstWrite));
  // Adding 1 still changes it.
  graph.events[firstWrite].value = wrap(value::apply(model::ValueOp::Add, {old, value::constant(1)}), 32);
  CHECK_FALSE(checker::unchangingWrite(graph, firstWrite));
}

TEST_CASE("what makes a loop iteration observable", "[checker][spin]") {
  CHECK(observableWrites("st.relaxed.gpu x, 1") == std::vector<bool>{true});
  // RMW polls that write back what they read leave memory unchanged (issue 13).
  CHECK(observableWrites("atom.relaxed.gpu.add r0, x, 0") == std::vector<bool>{false});
  CHECK(observableWrites("atom.relaxed.gpu.or r0, x, 0") == std::vector<bool>{false});
  CHECK(observableWrites("atom.relaxed.gpu.cas r0, x, 3, 3") == std::vector<bool>{false});
  CHECK(observableWrites("atom.relaxed.gpu.add r0, x, 1") == std::vector<bool>{true});
  CHECK(observableWrites("atom.relaxed.gpu.cas r0, x, 0, 1") == std::vector<bool>{true});
  CHECK(observableWrites("atom.relaxed.gpu.exch r0, x, 0") == std::vector<bool>{true});
  CHECK(observableWrites("atom.relaxed.gpu.max r0, x, 0") == std::vector<bool>{true});  // not on negative values
  // Writes that leave memory unchanged only for some read values are write-back candidates: the engines test
  // `written == read` per execution.
  CHECK_FALSE(checker::writeBackCandidate(graphOf("atom.relaxed.gpu.add r0, x, 0"), firstWrite));
  CHECK(checker::writeBackCandidate(graphOf("atom.relaxed.gpu.exch r0, x, 1"), firstWrite));
  CHECK(checker::writeBackCandidate(graphOf("atom.relaxed.gpu.max r0, x, 0"), firstWrite));
  CHECK_FALSE(checker::writeBackCandidate(graphOf("st.relaxed.gpu x, 1"), firstWrite - 1));  // a store: one event
  model::LoopInfo loop;
  loop.liveAtHeader = {2};
  CHECK(checker::observableAssignment(loop, 2));
  CHECK_FALSE(checker::observableAssignment(loop, 1));
}

TEST_CASE("an RMW poll another thread writes without moral strength is not reduced (it would lose final states)", "[checker][spin]") {
  // P1's write sits in co between the value P0's `atom.add 0` read and its write-back only when it is not morally
  // strong with it; P1's later read can then read the write-back: a state the execution without that iteration lacks.
  const auto second = [](const std::string& writer, const std::string& peer) {
    const std::string text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@" + peer + " ;\n atom.relaxed.gpu.add r0, x, 0 | " +
                             writer + " ;\nexists (x == 0)\n";
    const auto g = frontend::unroll(frontend::parseLitmus(text, "t.litmus"), {2});
    return std::pair{checker::observableEvent(g, firstWrite), checker::writeBackCandidate(g, firstWrite)};
  };
  CHECK(second("st.relaxed.gpu x, 5", "cta 1,gpu 0") == std::pair{false, false});  // morally strong: reduced
  CHECK(second("st.weak x, 5", "cta 1,gpu 0") == std::pair{true, false});           // weak writer
  CHECK(second("st.relaxed.cta x, 5", "cta 1,gpu 0") == std::pair{true, false});    // its scope misses P0
  CHECK(second("st.relaxed.cta x, 5", "cta 0,gpu 0") == std::pair{false, false});   // same CTA: in scope
}

TEST_CASE("the engines agree on spin loops that write, count or only read", "[checker][spin]") {
  const char* body[] = {
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n beq r0, 0, LC | ;\n",
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n st.relaxed.gpu y, 1 | ;\n beq r0, 0, LC | ;\n",
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | ;\n add r1, r1, 1 | ;\n beq r0, 0, LC | ;\n",
      // Write-back candidates: exch of the value a load read, a max that changes only negative values.
      " LC: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r1, x | ;\n atom.relaxed.gpu.exch r0, x, r1 | ;\n beq r0, 0, LC | ;\n",
      " LC: | st.relaxed.gpu x, 1 ;\n atom.relaxed.gpu.max r0, x, 0 | ;\n beq r0, 0, LC | ;\n",
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
