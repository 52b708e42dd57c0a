// Unit tests of the evaluator's equality refinement: past a branch on `setp.eq/ne r, c`, the side where the
// symbolic register r equals the constant c evaluates with r = c. nvcc re-tests such a value (the last-block idiom
// `if (prev == gridDim.x - 1) for (b < gridDim.x)` becomes a guard on `prev < 3` before a loop unrolled by four);
// without the refinement the evaluator walks the side no execution takes, whose loop never ends.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

namespace {

std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
         " .reg .pred %p<8>;\n .reg .b16 %rs<4>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
         " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n"
         " atom.global.add.u32 %r1, [%rd2], 1;\n" +
         body + "\n}\n";
}

// The operand stored by the thread's only st (its value operand).
Operand storedValue(const KernelProgram& k) {
  const auto stores = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(stores.size() == 1);
  return stores[0]->operands[1];
}

}  // namespace

TEST_CASE("past `setp.ne r, c; @p bra`, the fall-through side knows r == c", "[frontend][ptx]") {
  const KernelProgram k = instantiate(kernel(" setp.ne.s32 %p1, %r1, 2;\n @%p1 bra $DONE;\n add.s32 %r2, %r1, 5;\n"
                                             " st.global.u32 [%rd2+4], %r2;\n$DONE:\n ret;"),
                                      "1", "1", {"k_param_0=uint32[2]"});
  const Operand v = storedValue(k);
  CHECK(v.kind == Operand::Kind::Immediate);
  CHECK(v.value == 7);
}

TEST_CASE("the side where r != c, and a comparison narrower than r, learn nothing", "[frontend][ptx]") {
  // setp.eq taken to $EQ: the fall-through (r1 != 2) still stores a residual value.
  const KernelProgram ne = instantiate(kernel(" setp.eq.s32 %p1, %r1, 2;\n @%p1 bra $DONE;\n add.s32 %r2, %r1, 5;\n"
                                              " st.global.u32 [%rd2+4], %r2;\n$DONE:\n ret;"),
                                       "1", "1", {"k_param_0=uint32[2]"});
  CHECK(storedValue(ne).kind == Operand::Kind::Register);
  // A 16-bit comparison of a 32-bit register says nothing about its upper half.
  const KernelProgram narrow = instantiate(kernel(" setp.ne.s16 %p1, %r1, 2;\n @%p1 bra $DONE;\n add.s32 %r2, %r1, 5;\n"
                                                  " st.global.u32 [%rd2+4], %r2;\n$DONE:\n ret;"),
                                           "1", "1", {"k_param_0=uint32[2]"});
  CHECK(storedValue(narrow).kind == Operand::Kind::Register);
}

TEST_CASE("a loop nvcc guards by re-testing the value the branch pinned is not walked on the impossible side",
          "[frontend][ptx]") {
  // if (r1 == 2) { if (r1 >= 3) loop with counter 3 - 3 = 0 stepping by -4 (never 0 again) }: the inner side is
  // impossible; evaluating it would run the loop until the residual budget is spent (an incomplete thread).
  const KernelProgram k = instantiate(kernel(" setp.ne.s32 %p1, %r1, 2;\n @%p1 bra $DONE;\n"
                                             " setp.lt.u32 %p2, %r1, 3;\n @%p2 bra $DONE;\n mov.u32 %r3, 0;\n"
                                             "$LOOP:\n add.s32 %r3, %r3, -4;\n st.global.u32 [%rd2+4], %r3;\n"
                                             " setp.ne.s32 %p3, %r3, 0;\n @%p3 bra $LOOP;\n$DONE:\n ret;"),
                                      "1", "1", {"k_param_0=uint32[2]"});
  CHECK(k.incomplete.empty());
  CHECK(ofKind(k.program.threads[0], Opcode::St).empty());
}
