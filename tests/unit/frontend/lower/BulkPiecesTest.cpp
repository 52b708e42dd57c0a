// Unit tests of a kernel's bulk copy listing its elements ([dst], [src] pairs before the size, as the PTX
// instantiator writes a copy other accesses cut into elements): one async read and write per element, one
// complete_tx of the whole size, and the sizes checked against the elements.
#include <catch2/catch.hpp>

#include "frontend/lower/Unroller.hpp"

using namespace ptxmm;
using namespace ptxmm::frontend;

namespace {

Operand imm(std::int64_t v) { return {Operand::Kind::Immediate, {}, v, {}}; }
Operand loc(const std::string& name) { return {Operand::Kind::Location, name, 0, {}}; }

Location location(const std::string& name, bool shared, LocationKind kind = LocationKind::Memory, int size = 4) {
  Location l;
  l.name = name;
  l.size = size;
  l.kind = kind;
  l.space = shared ? StateSpace::Shared : StateSpace::Global;
  if (shared) l.ownerCta = 0;
  return l;
}

// Thread 0 initialises mbarrier m and copies s0, s1 (global) to d0, d1 (its shared memory) as one bulk copy of
// `size` bytes completing on m.
Program copyProgram(std::int64_t size) {
  Program p;
  p.threadsAreWarps = false;
  p.locations = {location("d0", true), location("s0", false), location("d1", true), location("s1", false),
                 location("m", true, LocationKind::MBarrier, 8)};
  Instruction init;
  init.op = Opcode::MbarInit;
  init.space = StateSpace::SharedCta;
  init.operands = {loc("m"), imm(1)};
  Instruction copy;
  copy.op = Opcode::BulkCopy;
  copy.bulk = BulkKind::GlobalToShared;
  copy.space = StateSpace::SharedCta;
  copy.operands = {loc("d0"), loc("s0"), loc("d1"), loc("s1"), imm(size), loc("m")};
  Thread t;
  t.name = "P0";
  t.code = {init, copy};
  p.threads.push_back(std::move(t));
  return p;
}

int paddrOf(const model::EventGraph& g, const std::string& name) {
  for (const auto& [n, p] : g.locationNames)
    if (n == name) return p;
  return -1;
}

}  // namespace

TEST_CASE("a bulk copy listing its elements: one async read and write each, one complete_tx", "[frontend][lower]") {
  const model::EventGraph g = unroll(copyProgram(8), {2});
  std::vector<int> readsAt, writesAt;
  int completions = 0;
  for (const auto& e : g.events) {
    if (e.is(model::Tag::I)) continue;
    if (e.is(model::Tag::ASYNC) && e.is(model::Tag::R)) readsAt.push_back(e.paddr);
    if (e.is(model::Tag::ASYNC) && e.is(model::Tag::W) && !e.is(model::Tag::MB)) writesAt.push_back(e.paddr);
    if (e.is(model::Tag::MB) && e.is(model::Tag::W) && e.is(model::Tag::REL)) ++completions;  // complete_tx's write
  }
  CHECK(readsAt == std::vector<int>{paddrOf(g, "s0"), paddrOf(g, "s1")});
  CHECK(writesAt == std::vector<int>{paddrOf(g, "d0"), paddrOf(g, "d1")});
  CHECK(completions == 1);
}

TEST_CASE("a bulk copy whose elements do not add up to its size is refused", "[frontend][lower]") {
  CHECK_THROWS_WITH(unroll(copyProgram(12), {2}), Catch::Contains("moves 12 bytes") && Catch::Contains("have 8"));
}
