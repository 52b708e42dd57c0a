// libFuzzer target for the cat reader and the evaluator: any input must parse or be rejected with a
// model::UserError, and a model that parses must evaluate (every definition and check, and the static bounds) on a
// small candidate execution: a crash, a hang (a `let rec` that never settles), a sanitizer report or any other
// exception is a bug. `include` is exercised by the unit tests only.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/CatParser.hpp"
#include "model/Evaluator.hpp"
#include "model/StaticBounds.hpp"

namespace {

using namespace ptxmm::model;

// Four events with a little of everything: an initial write, a write, a read, a fence; po, rf and co between them.
Candidate sample() {
  Candidate c(4);
  c.set(Tag::W).set(0);
  c.set(Tag::W).set(1);
  c.set(Tag::R).set(2);
  c.set(Tag::F).set(3);
  c.rel(BaseRel::Po).set(1, 2);
  c.rel(BaseRel::Po).set(1, 3);
  c.rel(BaseRel::Po).set(2, 3);
  c.rel(BaseRel::Rf).set(0, 2);
  c.rel(BaseRel::Co).set(0, 1);
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  CatModel model;
  try {
    model = parseCat(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.cat");
  } catch (const UserError&) {
    return 0;
  }
  static const Candidate candidate = sample();
  Evaluator ev(model);
  ev.reset(candidate);
  for (std::size_t d = 0; d < model.defs.size(); ++d) ev.definition(d);
  ev.failingChecks();
  ev.raisedFlags();
  StaticBounds bounds(model, candidate);
  for (std::size_t d = 0; d < model.defs.size(); ++d) bounds.definition(d);
  return 0;
}
