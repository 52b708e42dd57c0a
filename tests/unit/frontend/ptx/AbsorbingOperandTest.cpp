// Unit tests of the evaluator's absorbing operands: `and` with 0, `or` with every bit set, and a setp whose
// .and/.or predicate alone decides the result are constants whatever the other operand holds, symbolic or
// opaque. nvcc compiles `if (flag_from_shared && t < n)` to `or.pred %p, %t_ge_n, %flag_is_0; @%p bra`: without
// this, a thread with t >= n forked on the loaded flag and walked the guarded side no execution takes, and its
// accesses there were reported (out of bounds: a correct kernel exited 1; unseen set 4,
// lastblock-inc-broadcast-fenced.cu).
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

namespace {

// %r1 is symbolic (an atomic's result), %r5 opaque (a clock), %p2 concretely true and %p7 concretely false for
// the one thread of the launch (tid 0).
std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
         " .reg .pred %p<16>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
         " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n"
         " atom.global.add.u32 %r1, [%rd2], 1;\n mov.u32 %r5, %clock;\n mov.u32 %r2, %tid.x;\n"
         " setp.lt.u32 %p2, %r2, 8;\n setp.gt.u32 %p7, %r2, 8;\n" +
         body + "\n}\n";
}

std::size_t stores(const std::string& body) {
  const KernelProgram k = instantiate(kernel(body), "1", "1", {"k_param_0=uint32[4]"});
  REQUIRE(k.incomplete.empty());
  return ofKind(k.program.threads[0], Opcode::St).size();
}

// The value operand of the thread's only store.
Operand storedValue(const std::string& body) {
  const KernelProgram k = instantiate(kernel(body), "1", "1", {"k_param_0=uint32[4]"});
  const auto st = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(st.size() == 1);
  return st[0]->operands[1];
}

}  // namespace

TEST_CASE("or.pred with a true predicate decides a branch on a symbolic or opaque predicate", "[frontend][ptx]") {
  const std::string guarded = " @%p3 bra $DONE;\n st.global.u32 [%rd2+4], 1;\n$DONE:\n ret;";
  CHECK(stores(" setp.eq.s32 %p1, %r1, 0;\n or.pred %p3, %p2, %p1;\n" + guarded) == 0);
  CHECK(stores(" setp.eq.s32 %p1, %r5, 0;\n or.pred %p3, %p1, %p2;\n" + guarded) == 0);
  // A false predicate absorbs nothing: the branch still depends on the loaded value.
  CHECK(stores(" setp.eq.s32 %p1, %r1, 0;\n or.pred %p3, %p7, %p1;\n" + guarded) == 1);
}

TEST_CASE("and.pred with a false predicate, and setp.and/.or decided by their predicate, are constants",
          "[frontend][ptx]") {
  const std::string taken = " @!%p3 bra $DONE;\n st.global.u32 [%rd2+4], 1;\n$DONE:\n ret;";
  CHECK(stores(" setp.eq.s32 %p1, %r5, 0;\n and.pred %p3, %p1, %p7;\n" + taken) == 0);
  CHECK(stores(" setp.eq.and.s32 %p3, %r1, 3, %p7;\n" + taken) == 0);
  CHECK(stores(" setp.eq.and.s32 %p3, %r5, 3, !%p2;\n" + taken) == 0);
  CHECK(stores(" setp.ne.or.s32 %p4|%p3, %r1, 3, %p2;\n" + std::string(" @%p4 bra $DONE;\n st.global.u32 [%rd2+4], 1;\n$DONE:\n ret;")) == 0);
  // setp.eq.and with a true predicate still compares.
  CHECK(stores(" setp.eq.and.s32 %p3, %r1, 3, %p2;\n" + taken) == 1);
}

TEST_CASE("and.b32 with 0 and or.b32 with all ones store constants; or with 0 keeps the register",
          "[frontend][ptx]") {
  Operand v = storedValue(" and.b32 %r3, %r5, 0;\n st.global.u32 [%rd2+4], %r3;\n ret;");
  CHECK(v.kind == Operand::Kind::Immediate);
  CHECK(v.value == 0);
  v = storedValue(" or.b32 %r3, %r1, -1;\n st.global.u32 [%rd2+4], %r3;\n ret;");
  CHECK(v.kind == Operand::Kind::Immediate);
  CHECK((static_cast<std::uint64_t>(v.value) & 0xffffffffu) == 0xffffffffu);
  CHECK(storedValue(" or.b32 %r3, %r1, 0;\n st.global.u32 [%rd2+4], %r3;\n ret;").kind == Operand::Kind::Register);
}
