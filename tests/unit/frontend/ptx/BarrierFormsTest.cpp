// Unit tests of the CTA barriers of a kernel's residual code: `bar` is `barrier...aligned` (PTX ISA, bar/barrier:
// reaching an aligned barrier from divergent code is undefined behaviour), so bar.sync, bar.arrive, bar.red and
// barrier.*.aligned are aligned, and the plain barrier.sync / barrier.red are not.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

TEST_CASE("bar and barrier.aligned barriers are aligned; plain barrier ones are not", "[frontend][ptx]") {
  const std::string ptx =
      ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n .reg .pred %p<4>;\n .reg .b32 %r<8>;\n"
      " mov.u32 %r1, %tid.x;\n setp.eq.s32 %p1, %r1, 0;\n"
      " bar.sync 0;\n"                            // aligned
      " barrier.sync 1;\n"                        // not aligned
      " barrier.sync.aligned 2;\n"                // aligned
      " barrier.cta.sync 3;\n"                    // not aligned
      " bar.arrive 4, 64;\n"                      // aligned
      " barrier.arrive 5, 64;\n"                  // not aligned
      " bar.red.popc.u32 %r2, 6, %p1;\n"          // aligned
      " barrier.red.popc.u32 %r3, 7, %p1;\n"      // not aligned
      " barrier.red.and.aligned.pred %p2, 8, %p1;\n"  // aligned
      " ret;\n}\n";
  const KernelProgram k = instantiate(ptx, "1", "64");
  std::vector<std::pair<std::int64_t, bool>> barriers;  // (id, aligned)
  for (const auto& in : k.program.threads[0].code)
    if (in.op == Opcode::BarSync || in.op == Opcode::BarArrive) barriers.emplace_back(in.operands.at(0).value, in.aligned);
  const std::vector<std::pair<std::int64_t, bool>> expected = {{0, true}, {1, false}, {2, true}, {3, false}, {4, true},
                                                               {5, false}, {6, true}, {7, false}, {8, true}};
  CHECK(barriers == expected);
}
