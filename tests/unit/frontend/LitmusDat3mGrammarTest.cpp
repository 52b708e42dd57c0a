// One test per production of Dat3M's PTX litmus grammar (its LitmusPTX.g4 and LitmusAssertions.g4), written from
// the grammar, not from its corpus: init forms with addresses, `locations`, `filter`, an optional condition,
// moves spelt `ld r, V`, register arithmetic on values, every memory, atomic and fence form, the three-operand
// barrier `bar.cta.sync|arrive C{, ID{, Q}}` next to PTX's `bar.sync a{, b}`, labels, branches and gotos.
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "unit/frontend/RoundTrip.hpp"

namespace {

using namespace ptxmm::frontend;
using ptxmm::model::Proxy;
using ptxmm::model::Scope;
using ptxmm::model::UserError;

Program parse(const std::string& text) { return parseLitmus(text, "t.litmus"); }

std::string oneThread(const std::string& rows, const std::string& init = "x = 0;", const std::string& tail = "exists (x == 0)") {
  return "PTX t\n{ " + init + " }\n P0@cta 0,gpu 0 ;\n" + rows + "\n" + tail + "\n";
}

Instruction first(const std::string& instruction, const std::string& init = "x = 0;") {
  Program p = parse(oneThread(" " + instruction + " ;", init));
  REQUIRE(!p.threads[0].code.empty());
  return p.threads[0].code.back();
}

void requireError(const std::string& text, int line, int col, const std::string& fragment) {
  try {
    parse(text);
    FAIL("parsed without error; expected: " << fragment);
  } catch (const UserError& e) {
    INFO(e.what());
    CHECK(e.pos().line == line);
    CHECK(e.pos().col == col);
    CHECK_THAT(e.message(), Catch::Matchers::Contains(fragment));
  }
}

}  // namespace

TEST_CASE("Dat3M init: P0:r1=&x and P0:r1=x hold x's address", "[frontend][litmus][dat3m]") {
  const Program p = parse(oneThread(" ld.weak r0, x ;", "x = 0; P0:r1 = &x; 0:r2 = x;"));
  REQUIRE(p.regInits.size() == 2);
  CHECK(p.regInits[0].addressOf == "x");
  CHECK(p.regInits[1].addressOf == "x");
  CHECK(p.regInits[1].reg == "r2");
}

TEST_CASE("Dat3M init: x=&y and x=y hold y's address, also before y is declared", "[frontend][litmus][dat3m]") {
  const Program p = parse(oneThread(" ld.weak r0, x ;", "x = &y; z = y; y = 5;"));
  auto location = [&](const std::string& name) {
    for (const auto& l : p.locations)
      if (l.name == name) return l;
    FAIL("no location " << name);
    return Location{};
  };
  CHECK(location("x").addressOf == "y");
  CHECK(location("z").addressOf == "y");
  CHECK(location("y").init == 5);
  CHECK(location("y").declared);
  requireError(oneThread(" ;", "x = &x;"), 2, 8, "location 'x' cannot be initialised with its own address");
  requireError(oneThread(" ;", "P0:r0 = &5;"), 2, 12, "expected a location whose address the init takes");
}

TEST_CASE("Dat3M moves: ld r, V with a constant or a register", "[frontend][litmus][dat3m]") {
  const Instruction constant = first("ld r0, 1");
  CHECK(constant.op == Opcode::Local);
  CHECK(constant.localOp == LocalOp::Mov);
  REQUIRE(constant.operands.size() == 2);
  CHECK(constant.operands[1].kind == Operand::Kind::Immediate);
  CHECK(constant.operands[1].value == 1);
  CHECK(first("ld r0, -3").operands[1].value == -3);
  const Instruction reg = first("ld r0, r7");  // Dat3M's register spelling, never a location here
  CHECK(reg.op == Opcode::Local);
  CHECK(reg.operands[1].kind == Operand::Kind::Register);
  CHECK(first("ld r0, q", "x = 0; P0:q = 4;").op == Opcode::Local);  // a register the thread names
  CHECK(first("tld r0, 2").op == Opcode::Local);                     // every load mnemonic (Dat3M's `load`)
  // With qualifiers, or from a declared location, it is a load.
  CHECK(first("ld r0, x").op == Opcode::Ld);
  CHECK(first("ld.weak r0, r7", "x = 0; r7 = 0;").op == Opcode::Ld);
  CHECK(first("ld r0, [x]").op == Opcode::Ld);
}

TEST_CASE("Dat3M register arithmetic takes values on both sides", "[frontend][litmus][dat3m]") {
  for (const auto& [text, op] : std::vector<std::pair<std::string, LocalOp>>{
           {"add r0, 1, r1", LocalOp::Add}, {"sub r0, r1, 2", LocalOp::Sub}, {"mul r0, 3, 4", LocalOp::Mul},
           {"div r0, r1, r2", LocalOp::Div}}) {
    INFO(text);
    const Instruction ins = first(text);
    CHECK(ins.op == Opcode::Local);
    CHECK(ins.localOp == op);
    CHECK(ins.operands.size() == 3);
  }
}

TEST_CASE("Dat3M memory accesses through every proxy", "[frontend][litmus][dat3m]") {
  CHECK(first("tld.weak r0, x").proxy == Proxy::Texture);
  CHECK(first("suld.relaxed.gpu r0, x").proxy == Proxy::Surface);
  CHECK(first("cold.weak r0, x").proxy == Proxy::Constant);
  const Instruction sust = first("sust.release.sys x, r1");
  CHECK(sust.op == Opcode::St);
  CHECK(sust.proxy == Proxy::Surface);
  CHECK(sust.scope == Scope::Sys);
  const Instruction suatom = first("suatom.acq_rel.cta.exch r0, x, 2");
  CHECK(suatom.op == Opcode::Atom);
  CHECK(suatom.proxy == Proxy::Surface);
  CHECK(suatom.atomOp == AtomOp::Exch);
  const Instruction sured = first("sured.relaxed.gpu.xor x, r1");
  CHECK(sured.op == Opcode::Red);
  CHECK(sured.proxy == Proxy::Surface);
}

TEST_CASE("Dat3M atom and red: every operation, cas with two values", "[frontend][litmus][dat3m]") {
  for (const auto& [name, op] : std::vector<std::pair<std::string, AtomOp>>{
           {"add", AtomOp::Add}, {"sub", AtomOp::Sub}, {"mul", AtomOp::Mul}, {"div", AtomOp::Div},
           {"and", AtomOp::And}, {"or", AtomOp::Or}, {"xor", AtomOp::Xor}, {"exch", AtomOp::Exch}}) {
    INFO(name);
    CHECK(first("atom.relaxed.gpu." + name + " r0, x, r1").atomOp == op);
    if (op != AtomOp::Exch) CHECK(first("red.release.sys." + name + " x, 2").atomOp == op);
  }
  const Instruction cas = first("atom.acquire.cta.cas r0, x, r1, 3");
  CHECK(cas.atomOp == AtomOp::Cas);
  CHECK(cas.operands.size() == 4);
}

TEST_CASE("Dat3M fences: semantic, proxy (generic too) and alias", "[frontend][litmus][dat3m]") {
  const Instruction sc = first("fence.sc.cta");
  CHECK(sc.op == Opcode::Fence);
  CHECK(sc.sem == Sem::Sc);
  CHECK(first("fence.acq_rel.gpu").sem == Sem::AcqRel);
  for (const auto& [name, proxy] : std::vector<std::pair<std::string, Proxy>>{
           {"generic", Proxy::Generic}, {"constant", Proxy::Constant}, {"texture", Proxy::Texture}, {"surface", Proxy::Surface}}) {
    const Instruction f = first("fence.proxy." + name);
    CHECK(f.op == Opcode::FenceProxy);
    CHECK(f.proxy == proxy);
    CHECK_FALSE(f.aliasFence);
  }
  CHECK(first("fence.proxy.alias").aliasFence);
}

TEST_CASE("Dat3M barriers: bar.cta.sync|arrive LABEL{, ID{, QUORUM}}", "[frontend][litmus][dat3m]") {
  const Instruction plain = first("bar.cta.sync 1");
  CHECK(plain.op == Opcode::BarSync);
  CHECK(plain.dat3mBarrier);
  CHECK(plain.aligned);
  CHECK(plain.operands.size() == 1);
  const Instruction named = first("bar.cta.sync 1, 64");  // label 1, resource 64: not PTX's thread count
  CHECK(named.dat3mBarrier);
  CHECK(named.operands.size() == 2);
  const Instruction reg = first("bar.cta.arrive 0, r2, r3");
  CHECK(reg.op == Opcode::BarArrive);
  CHECK(reg.dat3mBarrier);
  CHECK(reg.operands[1].kind == Operand::Kind::Register);
  CHECK(reg.operands[2].kind == Operand::Kind::Register);
  CHECK(first("bar.cta.sync 2, 0, 3").operands[2].value == 3);
  requireError(oneThread(" bar.cta.sync r1, 2 ;"), 4, 15, "the barrier's label, a constant");
}

TEST_CASE("PTX barriers: bar.sync a{, b} with b a multiple of the warp size", "[frontend][litmus][dat3m]") {
  const Instruction counted = first("bar.sync 1, 64");
  CHECK_FALSE(counted.dat3mBarrier);
  CHECK(counted.aligned);
  CHECK(counted.operands[1].value == 64);
  CHECK_FALSE(first("barrier.sync 1").aligned);
  CHECK(first("barrier.sync.aligned 1").aligned);
  CHECK_FALSE(first("barrier.cta.sync 1, 64").dat3mBarrier);
  requireError(oneThread(" bar.sync 0, 48 ;"), 4, 14, "thread count 48 is not a positive multiple of the warp size (32)");
  requireError(oneThread(" barrier.sync 0, 0 ;"), 4, 18, "thread count 0 is not a positive multiple");
  requireError(oneThread(" bar.sync 16 ;"), 4, 11, "barrier id 16 does not exist: a CTA has barriers 0..15");
  requireError(oneThread(" bar.arrive 0 ;"), 4, 15, "missing operand: bar.arrive takes 2 operands");
}

TEST_CASE("Dat3M control: labels, every conditional branch, goto", "[frontend][litmus][dat3m]") {
  const Program p = parse(oneThread(
      " LC00: ;\n ld.relaxed.gpu r0, x ;\n beq r0, 1, LC01 ;\n bne 1, r0, LC01 ;\n bge r0, 2, LC01 ;\n"
      " ble r0, 2, LC01 ;\n bgt r0, 2, LC01 ;\n blt r0, 2, LC01 ;\n goto LC00 ;\n LC01: ;"));
  std::vector<CmpOp> cmps;
  for (const auto& ins : p.threads[0].code)
    if (ins.op == Opcode::Branch) cmps.push_back(ins.cmp);
  CHECK(cmps == std::vector{CmpOp::Eq, CmpOp::Ne, CmpOp::Ge, CmpOp::Le, CmpOp::Gt, CmpOp::Lt});
  CHECK(p.threads[0].code[8].op == Opcode::Goto);
}

TEST_CASE("Dat3M conditions: locations, a filter, exists/~exists/forall, an optional condition", "[frontend][litmus][dat3m]") {
  const Program filtered = parse(oneThread(" ld.weak r0, x ;", "x = 0;",
                                           "locations [x; P0:r0]\nfilter (P0:r0 == 1 \\/ ~(x != 0));\nforall (x == 0 /\\ P0:r0 = 0);"));
  CHECK(filtered.observed.size() == 2);
  REQUIRE(filtered.filter);
  CHECK(filtered.filter->kind == CondExpr::Kind::Or);
  CHECK(filtered.filterText == "(P0:r0 == 1 \\/ ~(x != 0))");
  CHECK(filtered.condition.quantifier == Condition::Quantifier::Forall);
  CHECK(parse(oneThread(" ;", "x = 0;", "~exists (x == 1)")).condition.quantifier == Condition::Quantifier::NotExists);
  const Program none = parse(oneThread(" ld.weak r0, x ;", "x = 0;", ""));
  CHECK(none.condition.quantifier == Condition::Quantifier::Forall);
  CHECK(none.condition.expr->kind == CondExpr::Kind::True);
}

TEST_CASE("Dat3M forms survive write -> parse", "[frontend][litmus][dat3m][writer]") {
  ptxmm::testing::requireRoundTrip(parse(
      "PTX t\n{ x = &y; y = 0; P0:r1 = &x; P1:r2 = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " ld r0, 1 | bar.cta.arrive 2, r2, 2 ;\n bar.cta.sync 2, 1, 2 | barrier.cta.sync.aligned 3, 64 ;\n"
      " bar.sync 3, 64 | barrier.sync 4 ;\n fence.proxy.generic | ld.weak r3, x ;\n"
      "filter (P1:r3 != 0)\nexists (P0:r0 == 1)\n"));
}
