// Unit tests of what the lowering does for kernel Programs (threads that are not warps, typed atomics, opaque
// values), on Programs built the way the PTX instantiator builds them; litmus Programs are unchanged by it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "frontend/lower/Unroller.hpp"

using namespace ptxmm;
using namespace ptxmm::frontend;

namespace {

Operand reg(const std::string& name) { return {Operand::Kind::Register, name, 0, {}}; }
Operand imm(std::int64_t v) { return {Operand::Kind::Immediate, {}, v, {}}; }
Operand loc(const std::string& name) { return {Operand::Kind::Location, name, 0, {}}; }

// A kernel Program of one thread running `code` on location x (4 bytes, initially `init`).
Program kernelProgram(std::vector<Instruction> code, std::int64_t init) {
  Program p;
  p.threadsAreWarps = false;
  Location x;
  x.name = "x";
  x.init = init;
  x.space = StateSpace::Global;
  p.locations.push_back(x);
  Thread t;
  t.name = "P0";
  t.code = std::move(code);
  p.threads.push_back(std::move(t));
  return p;
}

Instruction atom(AtomOp op, std::int64_t b, int bits, bool isUnsigned) {
  Instruction in;
  in.op = Opcode::Atom;
  in.atomOp = op;
  in.valueBits = bits;
  in.valueUnsigned = isUnsigned;
  in.operands = {reg("r"), loc("x"), imm(b)};
  return in;
}

// The value the program's only write to x stores, the read of x returning x's initial value.
std::optional<std::int64_t> written(const Program& p) {
  const model::EventGraph g = unroll(p, {2});
  for (const auto& e : g.events)
    if (e.tags.test(static_cast<std::size_t>(model::Tag::W)) && !e.tags.test(static_cast<std::size_t>(model::Tag::I)))
      return model::value::evaluate(e.value, [&](int) { return std::optional(p.locations[0].init); });
  return std::nullopt;
}

std::int64_t result(AtomOp op, std::int64_t old, std::int64_t b, int bits, bool isUnsigned) {
  return *written(kernelProgram({atom(op, b, bits, isUnsigned)}, old));
}

}  // namespace

TEST_CASE("kernel atomics compute at their width and signedness", "[frontend][lower]") {
  constexpr std::int64_t kMin32 = std::numeric_limits<std::int32_t>::min();
  CHECK(result(AtomOp::Add, 0x7fffffff, 1, 32, false) == kMin32);           // wraps at 32 bits
  CHECK(result(AtomOp::Add, 0x7fffffff, 1, 0, false) == 0x80000000ll);       // litmus values are 64-bit
  CHECK(result(AtomOp::Max, -1, 5, 32, true) == -1);                        // 0xffffffff is the larger unsigned
  CHECK(result(AtomOp::Max, -1, 5, 32, false) == 5);
  CHECK(result(AtomOp::Min, -1, 5, 64, true) == 5);
  CHECK(result(AtomOp::Min, std::numeric_limits<std::int64_t>::min(), 5, 64, true) == 5);
  CHECK(result(AtomOp::Inc, 3, 3, 32, true) == 0);                          // old >= b: back to 0
  CHECK(result(AtomOp::Inc, -1, 10, 32, true) == 0);                        // 0xffffffff >= 10 unsigned
  CHECK(result(AtomOp::Inc, 4, 10, 32, true) == 5);
  CHECK(result(AtomOp::Dec, 0, 7, 32, true) == 7);
  CHECK(result(AtomOp::Dec, -1, 7, 32, true) == 7);                         // old > b unsigned
  CHECK(result(AtomOp::Dec, 5, 7, 32, true) == 4);
  CHECK(result(AtomOp::Exch, 1, -2, 16, false) == -2);
}

TEST_CASE("opaque values lower to the opaque operator, keeping their dependencies", "[frontend][lower]") {
  Instruction ld;
  ld.op = Opcode::Ld;
  ld.operands = {reg("a"), loc("x")};
  Instruction o;
  o.op = Opcode::Local;
  o.localOp = LocalOp::Opaque;
  o.operands = {reg("f"), reg("a")};
  Instruction st;
  st.op = Opcode::St;
  st.operands = {loc("x"), reg("f")};
  const model::EventGraph g = unroll(kernelProgram({ld, o, st}, 3), {2});
  CHECK_FALSE(g.threadsAreWarps);
  CHECK(g.threadsPerArrival() == 1);
  // f := opaque(a): the register assignment keeps the load's register as its dependency.
  model::ValuePtr assigned;
  for (const auto& node : g.threads[0].nodes)
    for (const auto& [r, v] : node.assigns)
      if (g.threads[0].registers[static_cast<std::size_t>(r)] == "f") assigned = v;
  REQUIRE(assigned);
  CHECK(assigned->op == model::ValueOp::Opaque);
  CHECK(model::value::print(assigned, [&](int r) { return g.threads[0].registers[static_cast<std::size_t>(r)]; },
                            [](int) { return std::string("?"); }) == "opaque((0 + a))");
  Instruction f = atom(AtomOp::Add, 1, 32, false);
  f.opaqueValue = true;  // atom.add.f32
  CHECK(written(kernelProgram({f}, 0)) == 0);  // the opaque value evaluates to 0 in every engine
  CHECK(unroll(kernelProgram({}, 0), {2}).threadsAreWarps == false);
  Program litmus = kernelProgram({}, 0);
  litmus.threadsAreWarps = true;
  CHECK(unroll(litmus, {2}).threadsPerArrival() == 32);
}
