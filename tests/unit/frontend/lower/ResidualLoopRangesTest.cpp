// Unit tests of the structured layout of residual blocks (frontend/ptx/ResidualLayout.hpp) as the unroller reads
// it (hence in the lower layer): loops whose bodies nest but whose
// natural layout would make their instruction ranges overlap (an outer back edge leaving from inside the inner
// loop laid out last, as nvcc lays out libcu++'s counting_semaphore::acquire) must come out as nested ranges the
// unroller accepts, computing what the blocks compute.
#include <catch2/catch.hpp>

#include "unit/frontend/ptx/ResidualTestSupport.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/ptx/ResidualBuilder.hpp"
#include "frontend/ptx/ResidualLayout.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptx;
using namespace ptxmm::frontend::ptxtest;

namespace {

Instruction local(LocalOp op, const std::string& dst, std::vector<Operand> srcs) {
  Instruction in;
  in.op = Opcode::Local;
  in.localOp = op;
  in.operands = {ResidualBuilder::reg(dst)};
  for (auto& s : srcs) in.operands.push_back(std::move(s));
  return in;
}

Instruction setp(CmpOp cmp, const std::string& dst, Operand a, Operand b) {
  Instruction in;
  in.op = Opcode::Setp;
  in.cmp = cmp;
  in.operands = {ResidualBuilder::reg(dst), std::move(a), std::move(b)};
  return in;
}

Instruction branchOn(const std::string& predicate) {
  Instruction in;
  in.op = Opcode::Branch;
  in.predicated = true;
  in.operands = {ResidualBuilder::reg(predicate)};
  return in;
}

Instruction store(const std::string& location, const std::string& value) {
  Instruction in;
  in.op = Opcode::St;
  Operand a;
  a.kind = Operand::Kind::Location;
  a.name = location;
  in.operands = {a, ResidualBuilder::reg(value)};
  return in;
}

// Unrolls one thread's code as a program: throws what the unroller refuses (overlapping loops ...).
void unrollThread(const Thread& t) {
  Program p;
  p.arch = "PTX";
  p.threadsAreWarps = false;
  Location x;
  x.name = "x";
  p.locations.push_back(x);
  p.threads.push_back(t);
  (void)unroll(p, UnrollOptions(3));
}

}  // namespace

TEST_CASE("an outer back edge leaving from inside the inner loop laid out last still gives nested loop ranges",
          "[frontend][ptx][residual]") {
  using R = ResidualBuilder;
  // i = 0; j = 0; H: i += 1; I: j += 1; if (j % 2 == 1 && i < 3) goto H; J: if (j < 7) goto I; x = i*100 + j.
  // The outer loop (header H) is closed from I, in the middle of the inner loop I..J that ends its body.
  std::vector<ResidualBlock> blocks(5);
  blocks[0].code = {local(LocalOp::Mov, "i", {R::imm(0)}), local(LocalOp::Mov, "j", {R::imm(0)})};
  blocks[0].next = 1;
  blocks[1].code = {local(LocalOp::Add, "i", {R::reg("i"), R::imm(1)})};
  blocks[1].next = 2;
  blocks[2].code = {local(LocalOp::Add, "j", {R::reg("j"), R::imm(1)}), local(LocalOp::Rem, "odd", {R::reg("j"), R::imm(2)}),
                    setp(CmpOp::Lt, "few", R::reg("i"), R::imm(3)), local(LocalOp::And, "again", {R::reg("odd"), R::reg("few")})};
  blocks[2].branch = branchOn("again");
  blocks[2].taken = 1;
  blocks[2].next = 3;
  blocks[3].code = {setp(CmpOp::Lt, "more", R::reg("j"), R::imm(7))};
  blocks[3].branch = branchOn("more");
  blocks[3].taken = 2;
  blocks[3].next = 4;
  blocks[4].code = {local(LocalOp::Mul, "h", {R::reg("i"), R::imm(100)}), local(LocalOp::Add, "v", {R::reg("h"), R::reg("j")}),
                    store("x", "v")};
  std::vector<Incomplete> incomplete;
  Thread t;
  t.code = layOutResidual(blocks, 0, incomplete);
  CHECK(incomplete.empty());
  CHECK_NOTHROW(unrollThread(t));
  // j: 1 (i=1, odd: back to H), 2 (i=2, even: inner), 3 (odd, i=2<3: back to H), 4 (i=3), 5, 6, 7: i = 3, j = 7.
  std::map<std::string, std::int64_t> memory;
  REQUIRE(interpret(t, memory));
  CHECK(memory["x"] == 307);
}

TEST_CASE("a loop entered by a forward jump from the entry block has one residual entry", "[frontend][ptx][residual]") {
  // The shape of nvcc's counting_semaphore::acquire (lock-counting-semaphore.cu): the entry jumps forward to
  // $L_try, laid out last, which the wait loop $L_wait re-enters. Evaluated inline in the entry block, $L_try's
  // first visit would share its successors with later visits: a loop with two entries the unroller cannot read.
  const std::string ptx =
      ".version 8.5\n.target sm_90a\n.address_size 64\n.global .align 8 .u64 sem = 2;\n"
      ".visible .entry k()\n{\n .reg .pred %p<8>;\n .reg .b64 %rd<32>;\n"
      " mov.u64 %rd1, sem;\n bra.uni $L_try;\n"
      "$L_retry:\n setp.eq.s64 %p3, %rd10, 0;\n @%p3 bra $L_wait;\n add.s64 %rd4, %rd10, -1;\n"
      " atom.cas.acquire.gpu.b64 %rd5, [%rd1], %rd10, %rd4;\n setp.ne.s64 %p4, %rd5, %rd10;\n mov.u64 %rd10, %rd5;\n"
      " @%p4 bra $L_retry;\n bra.uni $L_done;\n"
      "$L_wait:\n ld.acquire.gpu.b64 %rd6, [%rd1];\n setp.ne.s64 %p5, %rd6, 0;\n @%p5 bra $L_try;\n bra.uni $L_wait;\n"
      "$L_try:\n ld.acquire.gpu.b64 %rd2, [%rd1];\n setp.eq.s64 %p1, %rd2, 0;\n @%p1 bra $L_wait;\n"
      " add.s64 %rd3, %rd2, -1;\n atom.cas.acquire.gpu.b64 %rd10, [%rd1], %rd2, %rd3;\n setp.eq.s64 %p2, %rd10, %rd2;\n"
      " @%p2 bra $L_done;\n bra.uni $L_retry;\n"
      "$L_done:\n atom.add.release.gpu.u64 %rd7, [%rd1], 1;\n ret;\n}\n";
  const KernelProgram k = instantiate(ptx, "1", "2");
  CHECK(k.incomplete.empty());
  CHECK_NOTHROW((void)unroll(k.program, UnrollOptions(2)));
}

TEST_CASE("a self loop closed by the same block that closes the loop around it gets nested latches", "[frontend][ptx][residual]") {
  using R = ResidualBuilder;
  // i = 0; j = 0; H: i += 1; if (i >= 3) goto X; I: j += 1; if (j % 2 == 1) goto I; goto H; X: x = i*100 + j.
  // Block I ends with both back edges (to itself, then to H): the inner loop's latch must not end up outside
  // the outer loop's range (the latches are added inner loops first).
  std::vector<ResidualBlock> blocks(4);
  blocks[0].code = {local(LocalOp::Mov, "i", {R::imm(0)}), local(LocalOp::Mov, "j", {R::imm(0)})};
  blocks[0].next = 1;
  blocks[1].code = {local(LocalOp::Add, "i", {R::reg("i"), R::imm(1)}), setp(CmpOp::Ge, "done", R::reg("i"), R::imm(3))};
  blocks[1].branch = branchOn("done");
  blocks[1].taken = 3;
  blocks[1].next = 2;
  blocks[2].code = {local(LocalOp::Add, "j", {R::reg("j"), R::imm(1)}), local(LocalOp::Rem, "odd", {R::reg("j"), R::imm(2)})};
  blocks[2].branch = branchOn("odd");
  blocks[2].taken = 2;
  blocks[2].next = 1;
  blocks[3].code = {local(LocalOp::Mul, "h", {R::reg("i"), R::imm(100)}), local(LocalOp::Add, "v", {R::reg("h"), R::reg("j")}),
                    store("x", "v")};
  std::vector<Incomplete> incomplete;
  Thread t;
  t.code = layOutResidual(blocks, 0, incomplete);
  CHECK_NOTHROW(unrollThread(t));
  std::map<std::string, std::int64_t> memory;
  REQUIRE(interpret(t, memory));
  CHECK(memory["x"] == 304);
}
