// Unit tests of where a residual loop is: its back edge keeps the origin of the PTX jump that closes it, so a
// hang is reported at the loop's own line (flag-plain-hoisted.cu: nvcc's `$L: bra.uni $L` at the `while` line,
// not the line of the code before it).
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

TEST_CASE("the back edge of an endless residual loop has the origin of its PTX jump", "[frontend][ptx]") {
  // The hoisted flag load of flag-plain-hoisted.cu: read once, then spin forever when it read 0.
  const std::string ptx =
      ".version 8.5\n.target sm_90a\n.address_size 64\n.global .align 4 .u32 flag;\n"
      ".visible .entry k()\n{\n .reg .pred %p<4>;\n .reg .b32 %r<8>;\n"
      " mov.u32 %r1, %ctaid.x;\n setp.eq.s32 %p1, %r1, 0;\n @%p1 bra $L_produce;\n"
      " ld.global.u32 %r2, [flag];\n setp.eq.s32 %p2, %r2, 0;\n @%p2 bra $L_spin;\n"
      " st.global.u32 [flag], 2;\n ret;\n"
      "$L_spin:\n bra.uni $L_spin;\n"  // line 18
      "$L_produce:\n st.global.u32 [flag], 1;\n ret;\n}\n";
  const KernelProgram k = instantiate(ptx, "2", "1");
  const Thread& consumer = k.program.threads[1];
  int back = -1;  // the jump to the loop's label
  for (std::size_t i = 0; i < consumer.code.size(); ++i)
    if (consumer.code[i].op == Opcode::Goto)
      for (std::size_t j = 0; j <= i; ++j)
        if (consumer.code[j].op == Opcode::Label && consumer.code[j].operands[0].name == consumer.code[i].operands[0].name)
          back = static_cast<int>(i);
  REQUIRE(back >= 0);
  const Instruction& go = consumer.code[static_cast<std::size_t>(back)];
  REQUIRE(go.origin >= 0);
  CHECK(k.origins[static_cast<std::size_t>(go.origin)].ptx.line == 18);
  CHECK(k.origins[static_cast<std::size_t>(go.origin)].ptxText == "bra.uni $L_spin");
}
