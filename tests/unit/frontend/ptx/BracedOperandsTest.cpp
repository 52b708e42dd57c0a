// Triton writes every scalar ld/st operand in braces, `ld.global.b32 { %r1 }, [ %rd1 + 0 ]` and
// `st.global.b32 [ %rd3 + 0 ], { %r3 }`: a one-register vector is that register (the load's value used to be
// dropped, so a kernel summed stale registers; the store was refused). A vector of several registers on an
// access without .v2/.v4 is an error, not silently ignored.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

namespace {

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

const char* kBraced = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, 0x0;
  ld.global.b32 { %r1 }, [ %rd1 + 0 ];
  ld.global.b32 %r2, [ %rd1 + 4 ];
  add.s32 %r3, %r1, %r2;
  st.global.b32 [ %rd2 + 0 ], { %r3 };
  ret;
}
)";

TEST_CASE("a one-register vector operand is the register", "[frontend][ptx][kernel]") {
  const KernelProgram k = instantiate(kBraced, "1", "1", {"in=int32[2]=5,7", "out=int32[1]"});
  std::map<std::string, std::int64_t> memory;
  REQUIRE(interpret(k.program.threads.at(0), memory));
  CHECK(memory.at("param_1[0]") == 12);
}

TEST_CASE("several registers on a scalar access are an error", "[frontend][ptx][kernel]") {
  std::string ptx = kBraced;
  ptx.replace(ptx.find("{ %r3 }"), 7, "{ %r3, %r2 }");
  CHECK_THROWS_WITH(instantiate(ptx, "1", "1", {"in=int32[2]=5,7", "out=int32[1]"}),
                    Catch::Contains("takes one register, not a vector"));
}

}  // namespace
