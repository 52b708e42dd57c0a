// Tests of the PTX litmus reader (LitmusLexer, LitmusParser) and of the instruction table it reads spellings
// from: the Dat3M PTX corpus when ../shared/peers is present, every instruction form inline, the exact
// position and wording of the diagnostics, and robustness against truncated and mutated input.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <string>

#include "frontend/InstructionTable.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace {

using namespace ptxmm::frontend;
using ptxmm::model::Proxy;
using ptxmm::model::Scope;
using ptxmm::model::UserError;

const std::string kCorpus = PTXMM_PEERS_DIR "/dat3m/litmus/PTX";

Program parse(const std::string& text) { return parseLitmus(text, "t.litmus"); }

/// A two-thread test: line 1 header, line 2 init block, line 3 thread header, rows from line 4, then `cond`.
std::string twoThreads(const std::string& rows, const std::string& init = "x = 0; y = 0;",
                       const std::string& cond = "exists (x == 0)") {
  return "PTX t\n{ " + init + " }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n" + rows + "\n" + cond + "\n";
}

/// The single instruction of P0 in a test whose only row is ` <instruction> ;`.
Instruction one(const std::string& instruction) {
  Program program = parse(twoThreads(" " + instruction + " ;"));
  REQUIRE(program.threads[0].code.size() == 1);
  return program.threads[0].code[0];
}

void requireError(const std::string& text, int line, int col, const std::string& fragment) {
  try {
    parse(text);
    FAIL("parsed without error; expected: " << fragment);
  } catch (const UserError& error) {
    INFO(error.what());
    CHECK(error.pos().file == "t.litmus");
    CHECK(error.pos().line == line);
    CHECK(error.pos().col == col);
    CHECK_THAT(error.message(), Catch::Matchers::Contains(fragment));
    std::string prefix = "t.litmus:" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
    CHECK(std::string(error.what()).rfind(prefix, 0) == 0);
  }
}

/// An error in the instruction ` <instruction> ;` on line 4, at the first occurrence of `at` in it, or at the
/// `;` that ends the row when `at` is empty.
void requireCodeError(const std::string& instruction, const std::string& at, const std::string& fragment) {
  std::size_t offset = at.empty() ? instruction.size() + 1 : instruction.find(at);
  REQUIRE(offset != std::string::npos);
  requireError(twoThreads(" " + instruction + " ;"), 4, 2 + static_cast<int>(offset), fragment);
}

bool haveCorpus() {
  if (std::filesystem::is_directory(kCorpus)) return true;
  WARN("skipped: the Dat3M PTX corpus is not at " << kCorpus);
  return false;
}

Program corpus(const std::string& relative) { return parseLitmusFile(kCorpus + "/" + relative); }

const Location& location(const Program& program, const std::string& name) {
  auto found = std::find_if(program.locations.begin(), program.locations.end(),
                            [&](const Location& l) { return l.name == name; });
  REQUIRE(found != program.locations.end());
  return *found;
}

void checkOperand(const Operand& operand, Operand::Kind kind, const std::string& name) {
  CHECK(operand.kind == kind);
  CHECK(operand.name == name);
}

void checkImmediate(const Operand& operand, std::int64_t value) {
  CHECK(operand.kind == Operand::Kind::Immediate);
  CHECK(operand.value == value);
}

void checkRegisterCompare(const CondExpr& expr, int thread, const std::string& reg, CmpOp cmp, std::int64_t value) {
  REQUIRE(expr.kind == CondExpr::Kind::Compare);
  CHECK(expr.lhs.kind == CondValue::Kind::Register);
  CHECK(expr.lhs.thread == thread);
  CHECK(expr.lhs.name == reg);
  CHECK(expr.cmp == cmp);
  CHECK(expr.rhs.kind == CondValue::Kind::Constant);
  CHECK(expr.rhs.value == value);
}

// A test touching most of the dialect, for the robustness runs.
const std::string kRich = R"(PTX rich+test.1
"a description
 on two lines" "another"
(* a comment (* nested *) *)
{ int x = 0; uint64_t y=-1; z = 0x10; P0:r0 = 3; 1:r1=4;
  a @ generic aliases x; s @ surface aliases a // trailing comment
}
 P0@cta 0,cluster 1,gpu 0 | P1@cta 1, cluster 1, gpu 0 | P2@cta 2,gpu 1 ;
 ld.acquire.gpu.global r0, [x] | L0: atom.acq_rel.sys.cas.b32 r2, y, 0, 1 | sust.weak s, 2 ;
 st.relaxed.cluster.shared::cluster y, -2 | bne r2, 0, L0 | fence.proxy.surface ;
 fence.sc.sys | @!p bra L1 | membar.gl ;
 bar.cta.sync 1, r3 | L1: setp.ge.s32 p, r2, 5 | red.release.gpu.add z, 1 ;
 mov.u32 r4, r0 | add r5, r2, -1 | barrier.cta.arrive.aligned 1, 64 ;
locations [x; P0:r0; 1:r2]
~exists (P0:r0 == 1 /\ ~(1:r2 != 0 \/ x = 2) /\ true)
)";

}  // namespace

// ------------------------------------------------------------------------------------------- the corpus

TEST_CASE("every Dat3M PTX litmus test parses", "[frontend][litmus]") {
  if (!haveCorpus()) return;
  int count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kCorpus)) {
    if (entry.path().extension() != ".litmus") continue;
    INFO(entry.path().string());
    CHECK_NOTHROW(parseLitmusFile(entry.path().string()));
    ++count;
  }
  CHECK(count >= 198);
}

TEST_CASE("MP-gpu parses field by field", "[frontend][litmus]") {
  if (!haveCorpus()) return;
  Program program = corpus("Manual/MP-gpu.litmus");
  CHECK(program.arch == "PTX");
  CHECK(program.name == "MP-gpu");
  REQUIRE(program.descriptions.size() == 1);
  CHECK(program.descriptions[0] == "Message passing, sync because release/acquire are morally strong");
  CHECK(program.regInits.size() == 2);
  CHECK(location(program, "x").declared);
  CHECK(location(program, "y").init == 0);
  REQUIRE(program.threads.size() == 2);
  CHECK(program.threads[1].name == "P1");
  CHECK(program.threads[1].cta == 0);
  CHECK(program.threads[1].gpu == 0);
  CHECK_FALSE(program.threads[1].cluster);

  const Instruction& store = program.threads[0].code[0];
  CHECK(store.op == Opcode::St);
  CHECK(store.sem == Sem::Weak);
  CHECK_FALSE(store.scope);
  checkOperand(store.operands[0], Operand::Kind::Location, "x");
  checkImmediate(store.operands[1], 1);

  REQUIRE(program.threads[1].code.size() == 2);
  const Instruction& load = program.threads[1].code[0];
  CHECK(load.op == Opcode::Ld);
  CHECK(load.sem == Sem::Acquire);
  CHECK(load.scope == Scope::Gpu);
  CHECK(load.proxy == Proxy::Generic);
  CHECK(load.text == "ld.acquire.gpu r1, y");
  CHECK(load.pos.line == 10);
  CHECK(load.pos.col == 27);
  REQUIRE(load.operands.size() == 2);
  checkOperand(load.operands[0], Operand::Kind::Register, "r1");
  checkOperand(load.operands[1], Operand::Kind::Location, "y");

  const Condition& condition = program.condition;
  CHECK(condition.quantifier == Condition::Quantifier::NotExists);
  CHECK(condition.text == "(P1:r1 == 1 /\\ P1:r2 != 1)");
  REQUIRE(condition.expr->kind == CondExpr::Kind::And);
  checkRegisterCompare(*condition.expr->a, 1, "r1", CmpOp::Eq, 1);
  checkRegisterCompare(*condition.expr->b, 1, "r2", CmpOp::Ne, 1);
}

TEST_CASE("Nvidia proxy tests declare aliases and use proxy instructions", "[frontend][litmus]") {
  if (!haveCorpus()) return;
  Program program = corpus("Nvidia/proxy/Proxy-MP-Alias+diffProxy-aliasFence+proxyFence-correctOrder1.litmus");
  CHECK(program.descriptions.size() == 3);
  CHECK_FALSE(location(program, "x").aliasProxy);
  CHECK(location(program, "y").aliasProxy == Proxy::Generic);
  CHECK(location(program, "y").aliasOf == "x");
  CHECK(location(program, "s").aliasProxy == Proxy::Surface);
  CHECK(location(program, "s1").aliasOf == "y");
  CHECK(location(program, "t").aliasProxy == Proxy::Texture);

  const auto& p0 = program.threads[0].code;
  REQUIRE(p0.size() == 4);
  CHECK(p0[0].op == Opcode::St);
  CHECK(p0[0].proxy == Proxy::Surface);
  CHECK(p0[1].op == Opcode::FenceProxy);
  CHECK(p0[1].proxy == Proxy::Surface);
  CHECK_FALSE(p0[1].aliasFence);
  CHECK(p0[2].op == Opcode::FenceProxy);
  CHECK(p0[2].aliasFence);
  const auto& p1 = program.threads[1].code;
  CHECK(p1.back().op == Opcode::Ld);
  CHECK(p1.back().proxy == Proxy::Texture);
  checkOperand(p1.back().operands[1], Operand::Kind::Location, "t");

  Program constant = corpus("Manual/proxy/Proxy-Const-ConstFence.litmus");
  CHECK(constant.threads[0].code[1].proxy == Proxy::Constant);
  CHECK(constant.threads[0].code[2].proxy == Proxy::Constant);
  CHECK(constant.condition.quantifier == Condition::Quantifier::Forall);
}

TEST_CASE("corpus barriers: register operands and arrive without a count", "[frontend][litmus]") {
  if (!haveCorpus()) return;
  Program named = corpus("Manual/SB+named-bar-reg-const-equal.litmus");
  const Instruction& barrier = named.threads[0].code[1];
  CHECK(barrier.op == Opcode::BarSync);
  CHECK(barrier.scope == Scope::Cta);
  REQUIRE(barrier.operands.size() == 2);
  checkImmediate(barrier.operands[0], 1);
  checkOperand(barrier.operands[1], Operand::Kind::Register, "r2");
  checkImmediate(named.threads[1].code[1].operands[1], 0);

  Program arrive = corpus("Manual/PC-bar-sync-arrive.litmus");  // also: no ';' before '}'
  const Instruction& first = arrive.threads[1].code[0];
  CHECK(first.op == Opcode::BarArrive);
  REQUIRE(first.operands.size() == 1);
  checkImmediate(first.operands[0], 1);
}

TEST_CASE("corpus labels, branches, numbered threads and '=' comparisons", "[frontend][litmus]") {
  if (!haveCorpus()) return;
  Program spin = corpus("Manual/Ticketlock-same-gpu.litmus");
  const auto& code = spin.threads[0].code;
  REQUIRE(code.size() == 9);
  CHECK(code[1].op == Opcode::Label);
  checkOperand(code[1].operands[0], Operand::Kind::Label, "LC00");
  CHECK(code[3].op == Opcode::Branch);
  CHECK(code[3].cmp == CmpOp::Eq);
  CHECK(code[3].text == "beq r1,r2,LC01");
  checkOperand(code[3].operands[1], Operand::Kind::Register, "r2");
  checkOperand(code[3].operands[2], Operand::Kind::Label, "LC01");
  CHECK(code[4].op == Opcode::Goto);
  checkOperand(code[4].operands[0], Operand::Kind::Label, "LC00");
  CHECK(code[0].op == Opcode::Atom);
  CHECK(code[0].sem == Sem::Acquire);
  CHECK(code[0].atomOp == AtomOp::Add);
  REQUIRE(spin.condition.expr->kind == CondExpr::Kind::And);
  const CondExpr& registers = *spin.condition.expr->a->a->a;  // P0:r1 == P0:r2
  CHECK(registers.rhs.kind == CondValue::Kind::Register);
  CHECK(registers.rhs.name == "r2");

  Program numbered = corpus("Manual/CoRW_.litmus");
  checkRegisterCompare(*numbered.condition.expr->a, 1, "r1", CmpOp::Eq, 1);
  const CondExpr& final = *numbered.condition.expr->b;
  CHECK(final.lhs.kind == CondValue::Kind::Location);
  CHECK(final.lhs.name == "x");

  Program equals = corpus("Manual/LB+RMW-c.litmus");
  CHECK(equals.condition.text == "(0:r0 = 1 /\\ 1:r1 = 1 /\\ 2:r2 = 2)");
  checkRegisterCompare(*equals.condition.expr->b, 2, "r2", CmpOp::Eq, 2);
  CHECK(equals.threads[1].code[0].text == "atom.relaxed.gpu.add r1, x, 1");

  Program cas = corpus("Manual/LB-dlb-no-fence-1.litmus");
  const Instruction& exchange = cas.threads[0].code[0];
  CHECK(exchange.atomOp == AtomOp::Cas);
  REQUIRE(exchange.operands.size() == 4);
  checkImmediate(exchange.operands[3], 1);

  Program red = corpus("Manual/Red-plus-location_.litmus");
  const Instruction& reduction = red.threads[0].code[0];
  CHECK(reduction.op == Opcode::Red);
  CHECK(reduction.sem == Sem::AcqRel);
  CHECK(reduction.scope == Scope::Sys);
  checkOperand(reduction.operands[0], Operand::Kind::Location, "x");

  Program tabs = corpus("Manual/CoRW-WW.litmus");
  CHECK(tabs.threads[1].code[0].text == "st.release.sys y, 4");
}

// ------------------------------------------------------------------------------------- instruction forms

TEST_CASE("loads: semantics, scopes, spaces, types and proxies", "[frontend][litmus]") {
  Instruction plain = one("ld r0, [x]");
  CHECK(plain.op == Opcode::Ld);
  CHECK(plain.sem == Sem::Default);
  checkOperand(plain.operands[1], Operand::Kind::Location, "x");

  Instruction weak = one("ld.weak.u32 r0, x");
  CHECK(weak.sem == Sem::Weak);
  CHECK_FALSE(weak.scope);

  Instruction acquire = one("ld.global.acquire.cluster r0, x");
  CHECK(acquire.sem == Sem::Acquire);
  CHECK(acquire.scope == Scope::Cluster);
  CHECK(acquire.space == StateSpace::Global);

  Instruction shared = one("ld.relaxed.cta.shared::cta.b64 r0, x");
  CHECK(shared.space == StateSpace::SharedCta);
  CHECK(shared.text == "ld.relaxed.cta.shared::cta.b64 r0, x");
  CHECK(one("ld.shared::cluster r0, x").space == StateSpace::SharedCluster);
  CHECK(one("ld.shared r0, x").space == StateSpace::Shared);

  CHECK(one("ld.volatile r0, x").sem == Sem::Volatile);
  Instruction mmio = one("ld.mmio.relaxed.sys.global r0, x");
  CHECK(mmio.sem == Sem::Mmio);
  CHECK(mmio.scope == Scope::Sys);

  CHECK(one("tld.weak r0, x").proxy == Proxy::Texture);
  CHECK(one("suld.relaxed.gpu r0, x").proxy == Proxy::Surface);
  Instruction constant = one("cold.weak r0, x");
  CHECK(constant.op == Opcode::Ld);
  CHECK(constant.proxy == Proxy::Constant);
}

TEST_CASE("stores take locations and values", "[frontend][litmus]") {
  Instruction store = one("st.release.sys.b64 [x], r1");
  CHECK(store.op == Opcode::St);
  CHECK(store.sem == Sem::Release);
  CHECK(store.scope == Scope::Sys);
  checkOperand(store.operands[0], Operand::Kind::Location, "x");
  checkOperand(store.operands[1], Operand::Kind::Register, "r1");
  checkImmediate(one("st.weak x, -5").operands[1], -5);
  checkImmediate(one("st.relaxed.cta x, 0x10").operands[1], 16);
  checkOperand(one("st.weak x, %r7").operands[1], Operand::Kind::Register, "%r7");
  CHECK(one("st.volatile.global x, 1").sem == Sem::Volatile);
  CHECK(one("st.mmio.relaxed.sys x, 1").sem == Sem::Mmio);
  CHECK(one("sust.weak x, 1").proxy == Proxy::Surface);
}

TEST_CASE("atomics and reductions: every operation, defaults left unfilled", "[frontend][litmus]") {
  Instruction plain = one("atom.add r0, x, 1");
  CHECK(plain.op == Opcode::Atom);
  CHECK(plain.sem == Sem::Default);
  CHECK_FALSE(plain.scope);

  Instruction exch = one("atom.acq_rel.gpu.exch.b32 r0, x, r1");
  CHECK(exch.sem == Sem::AcqRel);
  CHECK(exch.scope == Scope::Gpu);
  CHECK(exch.atomOp == AtomOp::Exch);

  Instruction cas = one("atom.relaxed.sys.shared.cas r0, x, 0, r2");
  CHECK(cas.atomOp == AtomOp::Cas);
  CHECK(cas.space == StateSpace::Shared);
  REQUIRE(cas.operands.size() == 4);
  checkOperand(cas.operands[0], Operand::Kind::Register, "r0");
  checkOperand(cas.operands[1], Operand::Kind::Location, "x");
  checkImmediate(cas.operands[2], 0);
  checkOperand(cas.operands[3], Operand::Kind::Register, "r2");

  for (const QualifierInfo& row : qualifierTable()) {
    if (row.kind != QualKind::AtomOp || row.atomOp == AtomOp::Cas) continue;
    std::string op(row.name);
    INFO(op);
    CHECK(one("atom.release.cta." + op + " r0, x, 2").atomOp == row.atomOp);
    Instruction red = one("red." + op + " x, 2");
    CHECK(red.op == Opcode::Red);
    CHECK(red.atomOp == row.atomOp);
  }

  Instruction red = one("red.acq_rel.sys.add x, 1");
  CHECK(red.sem == Sem::AcqRel);
  REQUIRE(red.operands.size() == 2);
  CHECK(one("red.acquire.gpu.min x, r1").sem == Sem::Acquire);
  CHECK(one("suatom.exch r0, x, 1").proxy == Proxy::Surface);
  CHECK(one("sured.relaxed.gpu.add x, 1").proxy == Proxy::Surface);
}

TEST_CASE("memory fences, membar and proxy fences", "[frontend][litmus]") {
  auto fence = [](const std::string& text, Sem sem, Scope scope) {
    INFO(text);
    Instruction ins = one(text);
    CHECK(ins.op == Opcode::Fence);
    CHECK(ins.sem == sem);
    CHECK(ins.scope == scope);
    CHECK(ins.operands.empty());
  };
  fence("fence.sc.cta", Sem::Sc, Scope::Cta);
  fence("fence.acq_rel.gpu", Sem::AcqRel, Scope::Gpu);
  fence("fence.acquire.sys", Sem::Acquire, Scope::Sys);
  fence("fence.release.cluster", Sem::Release, Scope::Cluster);
  fence("fence.gpu", Sem::AcqRel, Scope::Gpu);
  fence("membar.cta", Sem::Sc, Scope::Cta);
  fence("membar.gl", Sem::Sc, Scope::Gpu);
  fence("membar.sys", Sem::Sc, Scope::Sys);

  Instruction alias = one("fence.proxy.alias");
  CHECK(alias.op == Opcode::FenceProxy);
  CHECK(alias.aliasFence);
  CHECK(alias.sem == Sem::Default);
  CHECK_FALSE(alias.scope);
  for (Proxy proxy : {Proxy::Surface, Proxy::Texture, Proxy::Constant}) {
    Instruction ins = one("fence.proxy." + std::string(ptxmm::model::proxyName(proxy)));
    CHECK(ins.op == Opcode::FenceProxy);
    CHECK(ins.proxy == proxy);
    CHECK_FALSE(ins.aliasFence);
  }
}

TEST_CASE("CTA barriers: sync and arrive, immediate or register operands", "[frontend][litmus]") {
  auto barrier = [](const std::string& text, Opcode op, std::size_t operands) {
    INFO(text);
    Instruction ins = one(text);
    CHECK(ins.op == op);
    CHECK(ins.operands.size() == operands);
    return ins;
  };
  checkImmediate(barrier("bar.cta.sync 1", Opcode::BarSync, 1).operands[0], 1);
  CHECK_FALSE(barrier("bar.sync 0", Opcode::BarSync, 1).scope);
  barrier("barrier.sync 2", Opcode::BarSync, 1);
  Instruction reg = barrier("barrier.cta.sync.aligned 1, r2", Opcode::BarSync, 2);
  checkOperand(reg.operands[1], Operand::Kind::Register, "r2");
  barrier("bar.cta.arrive 1", Opcode::BarArrive, 1);
  checkImmediate(barrier("bar.arrive 1, 64", Opcode::BarArrive, 2).operands[1], 64);
  barrier("barrier.arrive r0, 32", Opcode::BarArrive, 2);
  barrier("barrier.cta.arrive.aligned 1, 96", Opcode::BarArrive, 2);
}

TEST_CASE("register arithmetic and setp", "[frontend][litmus]") {
  Instruction mov = one("mov.u32 r1, 5");
  CHECK(mov.op == Opcode::Local);
  CHECK(mov.localOp == LocalOp::Mov);
  checkOperand(mov.operands[0], Operand::Kind::Register, "r1");
  checkImmediate(mov.operands[1], 5);
  CHECK(one("neg r1, r2").localOp == LocalOp::Neg);
  CHECK(one("not.b32 r1, r2").localOp == LocalOp::Not);
  for (const MnemonicInfo& row : mnemonicTable()) {
    if (row.form != InstrForm::Local || row.sources != 2) continue;
    INFO(row.name);
    Instruction ins = one(std::string(row.name) + ".s64 r1, r2, -3");
    CHECK(ins.localOp == row.localOp);
    REQUIRE(ins.operands.size() == 3);
    checkImmediate(ins.operands[2], -3);
  }
  for (const QualifierInfo& row : qualifierTable()) {
    if (row.kind != QualKind::Cmp) continue;
    Instruction setp = one("setp." + std::string(row.name) + ".s32 p, r1, 2");
    CHECK(setp.op == Opcode::Setp);
    CHECK(setp.cmp == row.cmp);
    checkOperand(setp.operands[0], Operand::Kind::Register, "p");
  }
}

TEST_CASE("branches, gotos and labels", "[frontend][litmus]") {
  for (const MnemonicInfo& row : mnemonicTable()) {
    if (row.form != InstrForm::CompareBranch) continue;
    Program program = parse(twoThreads(" L: | ;\n " + std::string(row.name) + " r1, 0, L | ;"));
    const Instruction& branch = program.threads[0].code[1];
    CHECK(branch.op == Opcode::Branch);
    CHECK(branch.cmp == row.cmp);
    CHECK_FALSE(branch.predicated);
    checkOperand(branch.operands[2], Operand::Kind::Label, "L");
  }
  Program program = parse(twoThreads(" @p bra L | L2: ld.weak r0, x ;\n @!p bra.uni L | bra.uni L2 ;\n"
                                     " L: goto L | bra L2 ;"));
  const auto& p0 = program.threads[0].code;
  REQUIRE(p0.size() == 4);
  CHECK(p0[0].op == Opcode::Branch);
  CHECK(p0[0].predicated);
  CHECK_FALSE(p0[0].negatePredicate);
  CHECK(p0[0].text == "@p bra L");
  checkOperand(p0[0].operands[0], Operand::Kind::Register, "p");
  checkOperand(p0[0].operands[1], Operand::Kind::Label, "L");
  CHECK(p0[1].negatePredicate);
  CHECK(p0[1].text == "@!p bra.uni L");
  CHECK(p0[2].op == Opcode::Label);
  CHECK(p0[3].op == Opcode::Goto);
  const auto& p1 = program.threads[1].code;
  REQUIRE(p1.size() == 4);
  CHECK(p1[0].op == Opcode::Label);
  CHECK(p1[0].text == "L2:");
  CHECK(p1[1].op == Opcode::Ld);
  CHECK(p1[2].op == Opcode::Goto);
  CHECK(p1[3].op == Opcode::Goto);
}

TEST_CASE("cells, rows and instruction text", "[frontend][litmus]") {
  Program program = parse(twoThreads(" st.weak\t  x ,1 (* note *) ;\n | ld.weak r0, x ;\n ;\n |\t;"));
  CHECK(program.threads[0].code.size() == 1);
  CHECK(program.threads[0].code[0].text == "st.weak x ,1");
  REQUIRE(program.threads[1].code.size() == 1);
  CHECK(program.threads[1].code[0].pos.line == 5);
  CHECK(program.threads[1].code[0].pos.col == 4);
}

TEST_CASE("locations first used in the code exist with initial value 0", "[frontend][litmus]") {
  Program program = parse(twoThreads(" ld.weak r0, z | st.weak z, r1 ;", "x = 0;", "exists (z == 1)"));
  const Location& z = location(program, "z");
  CHECK_FALSE(z.declared);
  CHECK(z.init == 0);
  CHECK(z.pos.line == 4);
  CHECK(z.pos.col == 14);
  CHECK(location(program, "x").declared);
}

TEST_CASE("init block variants, descriptions and comments", "[frontend][litmus]") {
  Program program = parse(kRich);
  CHECK(program.name == "rich+test.1");
  CHECK(program.descriptions == std::vector<std::string>{"a description\n on two lines", "another"});
  CHECK(location(program, "x").init == 0);
  CHECK(location(program, "y").init == -1);
  CHECK(location(program, "z").init == 16);
  CHECK(location(program, "a").aliasOf == "x");
  CHECK(location(program, "s").aliasOf == "a");
  CHECK(location(program, "s").aliasProxy == Proxy::Surface);
  REQUIRE(program.regInits.size() == 2);
  CHECK(program.regInits[0].thread == 0);
  CHECK(program.regInits[0].value == 3);
  CHECK(program.regInits[1].thread == 1);
  CHECK(program.regInits[1].reg == "r1");

  Program extremes = parse(twoThreads(" ;", "x = -9223372036854775808; y = 0x7fffffffffffffff"));
  CHECK(location(extremes, "x").init == std::numeric_limits<std::int64_t>::min());
  CHECK(location(extremes, "y").init == std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("cluster placement", "[frontend][litmus]") {
  Program program = parse(kRich);
  REQUIRE(program.threads.size() == 3);
  CHECK(program.threads[0].cluster == 1);
  CHECK(program.threads[1].cta == 1);
  CHECK(program.threads[1].cluster == 1);
  CHECK_FALSE(program.threads[2].cluster);
  CHECK(program.threads[2].gpu == 1);

  Program sameCta = parse("PTX t\n{}\n P0@cta 3,cluster 0,gpu 0 | P1@gpu 0, cta 3, cluster 0 ;\nexists (true)");
  CHECK(sameCta.threads[1].cta == 3);
  CHECK(sameCta.threads[1].cluster == 0);
}

TEST_CASE("a condition's register must be one its thread names (issue 16 W4)", "[frontend][litmus]") {
  // P1:r11 for P1:r1 would read as 0 and could flip the verdict.
  const std::string rows = " st.weak x, 1 | ld.weak r1, x ;";
  CHECK_NOTHROW(parse(twoThreads(rows, "x = 0;", "exists (P1:r1 == 0)")));
  CHECK_NOTHROW(parse(twoThreads(rows, "x = 0; P0:r7 = 2;", "exists (P0:r7 == 2)")));  // named by its initialiser
  CHECK_THROWS_WITH(parse(twoThreads(rows, "x = 0;", "exists (P1:r1 == 0 /\\ P1:r11 == 0)")),
                    Catch::Contains("t.litmus:5:26: error: unknown register 'r11': P1 does not use it"));
  CHECK_THROWS_WITH(parse(twoThreads(rows, "x = 0;", "locations [P0:r1;]\nexists (x == 1)")),
                    Catch::Contains("unknown register 'r1': P0 does not use it"));
}

TEST_CASE("conditions: quantifiers, precedence and values", "[frontend][litmus]") {
  Program rich = parse(kRich);
  REQUIRE(rich.observed.size() == 3);
  CHECK(rich.observed[0].kind == CondValue::Kind::Location);
  CHECK(rich.observed[1].kind == CondValue::Kind::Register);
  CHECK(rich.observed[2].thread == 1);
  CHECK(rich.condition.quantifier == Condition::Quantifier::NotExists);
  CHECK(rich.condition.text == "(P0:r0 == 1 /\\ ~(1:r2 != 0 \\/ x = 2) /\\ true)");
  const CondExpr& top = *rich.condition.expr;
  REQUIRE(top.kind == CondExpr::Kind::And);
  CHECK(top.b->kind == CondExpr::Kind::True);
  REQUIRE(top.a->b->kind == CondExpr::Kind::Not);
  CHECK(top.a->b->a->kind == CondExpr::Kind::Or);

  // P1 names r0 (its initial value), so conditions may read it.
  auto condition = [](const std::string& cond) { return parse(twoThreads(" ;", "x = 0; P1:r0 = 0;", cond)).condition; };
  CHECK(condition("~ exists x = 1").quantifier == Condition::Quantifier::NotExists);
  Condition precedence = condition("forall x == 1 \\/ x == 2 /\\ ~x == 3");
  CHECK(precedence.quantifier == Condition::Quantifier::Forall);
  REQUIRE(precedence.expr->kind == CondExpr::Kind::Or);
  REQUIRE(precedence.expr->b->kind == CondExpr::Kind::And);
  CHECK(precedence.expr->b->b->kind == CondExpr::Kind::Not);
  CHECK(precedence.text == "x == 1 \\/ x == 2 /\\ ~x == 3");

  const std::vector<std::pair<std::string, CmpOp>> operators = {
      {"==", CmpOp::Eq}, {"=", CmpOp::Eq}, {"!=", CmpOp::Ne}, {"<", CmpOp::Lt},
      {"<=", CmpOp::Le}, {">", CmpOp::Gt}, {">=", CmpOp::Ge}};
  for (const auto& [spelling, cmp] : operators) {
    Condition c = condition("exists (P1:r0 " + spelling + " -4)");
    CHECK(c.expr->cmp == cmp);
    CHECK(c.expr->rhs.value == -4);
  }
  CHECK(condition("exists false").expr->kind == CondExpr::Kind::False);
  Condition pos = condition("exists\n  (x == 1)");
  CHECK(pos.pos.line == 5);
  CHECK(pos.expr->pos.line == 6);
  CHECK(pos.expr->pos.col == 4);
}

TEST_CASE("parseLitmusFile reports unreadable files at 0:0", "[frontend][litmus]") {
  try {
    parseLitmusFile("/nonexistent/t.litmus");
    FAIL("read a file that does not exist");
  } catch (const UserError& error) {
    CHECK(error.pos().line == 0);
    CHECK(error.pos().col == 0);
    CHECK(error.pos().file == "/nonexistent/t.litmus");
  }
  CHECK_THROWS_AS(parseLitmusFile(std::filesystem::temp_directory_path().string()), UserError);
}

// ------------------------------------------------------------------------------------------- diagnostics

TEST_CASE("instruction errors name the offending token", "[frontend][litmus]") {
  requireCodeError("foo r0, x", "foo", "unknown instruction 'foo'");
  requireCodeError("ld.bogus r0, x", ".bogus", "unknown qualifier '.bogus' on ld");
  requireCodeError("ld.release.gpu r0, x", ".release", "qualifier '.release' is not allowed on ld");
  requireCodeError("ld.relaxed r0, x", ".relaxed", "ld.relaxed needs a scope (.cta, .cluster, .gpu or .sys)");
  requireCodeError("st.weak.gpu x, 1", ".gpu", "st.weak takes no scope");
  requireCodeError("ld.volatile.sys r0, x", ".sys", "ld.volatile takes no scope");
  requireCodeError("ld.gpu r0, x", ".gpu", "ld takes a scope only with .relaxed or .acquire");
  requireCodeError("st.volatile.gpu x, 1", ".gpu", "st.volatile takes no scope");
  requireCodeError("st.cta x, 1", ".cta", "st takes a scope only with .relaxed or .release");
  requireCodeError("ld.mmio.relaxed.gpu r0, x", ".mmio", "ld.mmio needs .relaxed.sys");
  requireCodeError("ld.acquire.relaxed.gpu r0, x", ".relaxed", "qualifier '.relaxed' conflicts with '.acquire'");
  requireCodeError("ld.global.nc.u32 r0, x", ".nc",
                   "ld.global.nc reads through the non-coherent path, which the PTX memory model does not cover");
  requireCodeError("ld.weak.v2.u32 r0, x", ".v2", "vector accesses are not supported yet");
  requireCodeError("fence.sc", ".sc", "fence.sc needs a scope (.cta, .cluster, .gpu or .sys)");
  requireCodeError("fence", "fence", "fence needs a scope");
  requireCodeError("membar.gpu", ".gpu", "qualifier '.gpu' is not allowed on membar");
  requireCodeError("membar", "membar", "membar needs a scope (.cta, .sys or .gl)");
  requireCodeError("fence.proxy.tensormap", ".tensormap", "fence.proxy.tensormap is not supported yet");
  requireCodeError("fence.proxy.tensormap::generic.gpu", "fence", "fence needs .release or .acquire");
  requireCodeError("fence.proxy.async.local", ".local", "qualifier '.local' is not allowed on fence here");
  requireCodeError("fence.proxy", ".proxy", "fence.proxy needs a target (.alias, .generic, .surface, .texture or .constant)");
  requireCodeError("fence.sc.proxy.alias", ".proxy", "'.proxy' must come right after fence");
  requireCodeError("bar.red.popc.u32 r0, 0, p", ".red", "bar.red is not supported yet");
  requireCodeError("bar.cta 1", "bar", "bar needs an action (.sync or .arrive)");
  requireCodeError("atom.relaxed.gpu r0, x, 1", "atom", "atom needs an operation (.add, .sub");
  requireCodeError("red.cas x, 1", ".cas", "qualifier '.cas' is not allowed on red");
  requireCodeError("setp.s32 p, r1, 1", "setp", "setp needs a comparison (.eq, .ne, .lt, .le, .gt or .ge)");
  requireCodeError("@5 ld.weak r0, x", "5", "expected a predicate register after '@'");
  requireCodeError("ld. weak r0, x", "weak", "expected a qualifier right after '.'");
}

TEST_CASE("operand errors", "[frontend][litmus]") {
  requireCodeError("ld.weak 1, x", "1", "expected a destination register, got '1'");
  requireCodeError("ld.weak x, y", "x", "location 'x' used as a register");
  requireCodeError("st.weak x, y", "y", "location 'y' used as a value");
  requireCodeError("ld.weak r0, 5", "5", "expected an address (a location name), got '5'");
  requireCodeError("ld.weak r0, [x", "", "expected ']' after the address, got ';'");
  requireCodeError("ld.weak r0, x, y", ", y", "too many operands: ld.weak takes 2 operands");
  requireCodeError("atom.cas r0, x, 1", "", "missing operand: atom.cas takes 4 operands");
  requireCodeError("bar.cta.sync 1, 2, 3, 4", ", 4", "too many operands: bar.cta.sync takes 1 to 3 operands");
  requireCodeError("bar.sync 1, 2, 3", ", 3", "too many operands: bar.sync takes 1 or 2 operands");
  requireCodeError("fence.sc.gpu r0", "r0", "too many operands: fence.sc.gpu takes no operands");
  requireCodeError("ld.weak r0 x", "x", "expected ',' between operands, got 'x'");
  requireCodeError("st.weak x, -", "", "expected an integer, got ';'");
  requireCodeError("bra 5", "5", "expected a label, got '5'");
  requireCodeError("bra L9", "L9", "unknown label 'L9' in P0");
}

TEST_CASE("code layout errors", "[frontend][litmus]") {
  requireError(twoThreads(" st.weak x, 1 | ld.weak r0, x | ld.weak r1, y ;"), 4, 31,
               "this row has more cells than the test has threads (2 threads)");
  requireError(twoThreads(" L: | ;\n L: | ;"), 5, 2, "label 'L' is defined twice in P0 (first at line 4)");
  requireError(twoThreads(" ld.weak r0, x st.weak y, 1 ;"), 4, 16, "expected '|' or ';' after the instruction");
  requireError(twoThreads(" ld.weak r0, x $ ;"), 4, 16, "unexpected character '$'");
  requireError("PTX t\n{}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x", 4, 15, "after the instruction, got end of file");
  // Labels belong to their thread: P1's L does not serve P0's branch.
  requireError(twoThreads(" bra L | L: ;\n bra L2 | ;"), 4, 6, "unknown label 'L' in P0");
}

TEST_CASE("header, init and placement errors", "[frontend][litmus]") {
  requireError("C t\n{}", 1, 1, "expected a PTX litmus test starting with 'PTX <name>', got 'C'");
  requireError("PTX   \n{}", 1, 7, "missing test name after PTX");
  requireError("PTX t\n\"abc\n{}", 2, 1, "unterminated string");
  requireError("PTX t\n{ x = 0; (* (* *) }\n", 2, 10, "unterminated comment");
  requireError("PTX t\n{ x = 1.5 }", 2, 8, "expected ';' or '}' after an init entry, got '.'");
  requireError("PTX t\n{ x = 12ab }", 2, 7, "malformed number '12ab'");
  requireError(twoThreads(" ;", "x = 0; x = 1;"), 2, 10, "location 'x' is declared twice (first at line 2)");
  requireError(twoThreads(" ;", "P0:r0 = 0; 0:r0 = 1;"), 2, 16, "register P0:r0 is initialised twice");
  requireError(twoThreads(" ;", "x = 9223372036854775808;"), 2, 7,
               "integer 9223372036854775808 does not fit in 64 bits");
  requireError(twoThreads(" ;", "y @ generic aliases x; x = 0;"), 2, 23, "alias target 'x' is not declared");
  requireError(twoThreads(" ;", "x = 0; y @ async aliases x;"), 2, 14,
               "unknown proxy 'async' (expected generic, surface, texture or constant)");
  requireError(twoThreads(" ;", "x = 0; y @ generic alias x;"), 2, 22, "expected 'aliases', got 'alias'");
  requireError(twoThreads(" ;", "foo x = 0;"), 2, 3, "unknown type 'foo' before location 'x'");
  requireError(twoThreads(" ;", "x = 0; P5:r0 = 1;"), 2, 10, "unknown thread P5 (the test has 2 threads)");
  requireError(twoThreads(" ;", "Q:r0 = 1;"), 2, 3, "expected a thread (P0 or 0) before ':', got 'Q'");
  requireError("PTX t\n{}\n P0 | P1@cta 0,gpu 0 ;", 3, 2, "thread P0 needs a placement: write P0@cta C,gpu G");
  requireError("PTX t\n{}\n P1@cta 0,gpu 0 ;", 3, 2, "thread header 'P1' in column 0: expected P0");
  requireError("PTX t\n{}\n P0@cta 0 ;", 3, 2, "thread P0 needs a cta and a gpu");
  requireError("PTX t\n{}\n P0@cta 0,sys 0,gpu 0 ;", 3, 11, "expected cta, cluster, warp or gpu in the placement of P0");
  requireError("PTX t\n{}\n P0@cta 0,cta 1,gpu 0 ;", 3, 11, "cta is given twice in the placement of P0");
  requireError("PTX t\n{}\n P0@cta 0,cluster 1,gpu 0 | P1@cta 0,cluster 2,gpu 0 ;", 3, 46,
               "P1 puts cta 0 of gpu 0 in cluster 2, but P0 puts it in cluster 1");
  requireError("PTX t\n{}\n P0@cta 0,cluster 1,gpu 0 | P1@cta 0,gpu 0 ;", 3, 36,
               "P1 puts cta 0 of gpu 0 in its own cluster, but P0 puts it in cluster 1");
  requireError("PTX t\n{}\n P0@cta 0,gpu 0 P1@cta 1,gpu 0 ;", 3, 17, "expected '|' or ';' after a thread header");
}

TEST_CASE("condition errors", "[frontend][litmus]") {
  requireError(twoThreads(" ;", "x = 0;", "exists (P2:r0 == 1)"), 5, 9, "unknown thread P2 (the test has 2 threads)");
  requireError("PTX t\n{ x = 0 }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P4294967296:r0 == 1)", 5, 9,
               "unknown thread P4294967296");
  requireError(twoThreads(" ;", "x = 0;", "exists (z == 1)"), 5, 9, "unknown location 'z'");
  requireError(twoThreads(" ;", "x = 0;", "exists (x == 0) foo"), 5, 17, "unexpected 'foo' after the final condition");
  requireError(twoThreads(" ;", "x = 0;", "locations [x]\nfoo (x == 0)"), 6, 1,
               "expected the final condition (exists, ~exists or forall), got 'foo'");
  requireError(twoThreads(" ;", "x = 0;", "~forall (x == 0)"), 5, 2, "expected exists after '~', got 'forall'");
  requireError(twoThreads(" ;", "x = 0;", "exists"), 6, 1, "expected a proposition, got end of file");
  requireError(twoThreads(" ;", "x = 0;", "exists (x 1)"), 5, 11, "expected a comparison");
  requireError(twoThreads(" ;", "x = 0;", "exists (x == 1"), 6, 1, "expected ')', got end of file");
  requireError(twoThreads(" ;", "x = 0;", "locations [x; 2]\nexists (x == 1)"), 5, 15,
               "expected a register (P0:r0) or a location, got '2'");
  requireError(twoThreads(" ;", "x = 0;", "exists " + std::string(600, '(')), 5, 8 + 500,
               "proposition nested too deeply (more than 500 levels)");
  requireError(twoThreads(" ;", "x = 0;", "exists " + std::string(600, '~') + "true"), 5, 8 + 500,
               "proposition nested too deeply");
}

// -------------------------------------------------------------------------------------------- robustness

TEST_CASE("truncated and mutated tests parse or fail with a UserError", "[frontend][litmus]") {
  const std::vector<std::string> samples = {
      kRich,
      twoThreads(" st.weak x, 1 | ld.acquire.gpu r1, y ;\n st.release.gpu y, 1 | ld.weak r2, x ;", "x=0; y=0;",
                 "~exists\n(P1:r1 == 1 /\\ P1:r2 != 1)"),
      twoThreads(" L: ld.relaxed.sys r1, f | bar.cta.arrive 1 ;\n beq r1, 0, L | fence.proxy.alias ;",
                 "f = 0; g @ texture aliases f; P0:r1 = 0", "forall (P0:r1 = 1 \\/ g != 0)"),
  };
  auto survives = [](const std::string& text) {
    try {
      parse(text);
    } catch (const UserError&) {
    } catch (const std::exception& other) {
      FAIL("not a UserError: " << other.what() << "\non input:\n" << text);
    }
  };
  for (const std::string& sample : samples) {
    REQUIRE_NOTHROW(parse(sample));
    for (std::size_t length = 0; length <= sample.size(); ++length) survives(sample.substr(0, length));
  }

  const std::string interesting = "(*)\"/\\~|;:@.,[]{}=<>!-0123456789xPr \n\t";
  std::mt19937 random(20240601);
  for (const std::string& sample : samples) {
    for (int round = 0; round < 1500; ++round) {
      std::string text = sample;
      int edits = 1 + static_cast<int>(random() % 3);
      for (int edit = 0; edit < edits && !text.empty(); ++edit) {
        std::size_t at = random() % text.size();
        char byte = random() % 4 == 0 ? static_cast<char>(random() % 256) : interesting[random() % interesting.size()];
        switch (random() % 4) {
          case 0: text[at] = byte; break;
          case 1: text.erase(at, 1); break;
          case 2: text.insert(at, 1, byte); break;
          default: text.insert(at, text.substr(random() % text.size(), random() % 16)); break;
        }
      }
      survives(text);
    }
  }
  survives("PTX t\n{}\n P0@cta 0,gpu 0 ;\n ;\nexists " + std::string(100000, '('));
  survives(std::string(100000, '(') + std::string(100000, '*'));
}

// ------------------------------------------------------------------------------------ instruction table

TEST_CASE("the instruction table has every mnemonic once and agrees with the model vocabulary", "[frontend][litmus]") {
  for (const char* name : {"ld", "st", "atom", "red", "tld", "suld", "cold", "sust", "suatom", "sured", "fence",
                           "membar", "bar", "barrier", "mov", "add", "sub", "mul", "div", "rem", "and", "or", "xor",
                           "shl", "shr", "min", "max", "neg", "not", "setp", "beq", "bne", "blt", "ble", "bgt", "bge",
                           "goto", "bra"}) {
    INFO(name);
    CHECK(findMnemonic(name));
  }
  std::set<std::string_view> mnemonics, qualifiers;
  for (const auto& row : mnemonicTable()) CHECK(mnemonics.insert(row.name).second);
  for (const auto& row : qualifierTable()) CHECK(qualifiers.insert(row.name).second);

  for (const auto& row : qualifierTable()) {
    if (row.kind != QualKind::Scope || row.name == "gl") continue;  // membar's `.gl` is not a model scope name
    INFO(row.name);
    CHECK(ptxmm::model::findScope(row.name) == row.scope);
  }
  for (Sem sem : {Sem::Weak, Sem::Relaxed, Sem::Acquire, Sem::Release, Sem::AcqRel, Sem::Sc, Sem::Volatile, Sem::Mmio})
    CHECK(findQualifier(semName(sem))->sem == sem);
  CHECK(semName(Sem::Default).empty());
  CHECK(joinAlternatives({"a"}) == "a");
  CHECK(joinAlternatives({"a", "b", "c"}) == "a, b or c");
}

TEST_CASE("a guarded instruction becomes a conditional branch around it", "[frontend][litmus]") {
  const Program p = parse("PTX G\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n @!p st.weak [x], 5 ;\nexists (x == 5)\n");
  const auto& code = p.threads.at(0).code;
  REQUIRE(code.size() == 3);
  CHECK(code[0].op == Opcode::Branch);
  CHECK(code[0].predicated);
  CHECK_FALSE(code[0].negatePredicate);  // @!p INSTR skips INSTR when p holds
  CHECK(code[0].operands.at(0).name == "p");
  CHECK(code[1].op == Opcode::St);
  CHECK(code[1].text == "st.weak [x], 5");
  CHECK(code[2].op == Opcode::Label);
  CHECK(code[2].operands.at(0).name == code[0].operands.at(1).name);
}
