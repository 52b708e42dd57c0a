// Values forced by barrier phases and program order (KernelValues), where accesses of different sizes overlap:
// a read of a byte that a 16-bit store overwrote after a byte store gets each byte from its own forced writer.
#include <catch2/catch.hpp>

#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

// 4 threads: thread t stores byte t+1 at buf[t]; FIRST_BARRIER; odd threads store the 16-bit (t << 8) | 0xf0 over
// bytes t-1 and t; bar.sync 0; thread 0 copies byte 2 to bytes[0] and the halfword at 2 to halves[0].
std::string views(bool firstBarrier) {
  return std::string(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry views(.param .u64 bytes, .param .u64 halves)
{
  .reg .b16 %rs<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  .shared .align 2 .b8 buf[4];
  ld.param.u64 %rd1, [bytes];
  ld.param.u64 %rd2, [halves];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  add.s32 %r3, %r2, %r1;
  add.s32 %r4, %r1, 1;
  st.shared.u8 [%r3], %r4;
)") + (firstBarrier ? "  bar.sync 0;\n" : "") + R"(
  and.b32 %r5, %r1, 1;
  setp.eq.s32 %p1, %r5, 0;
  @%p1 bra $L1;
  shl.b32 %r6, %r1, 8;
  or.b32 %r7, %r6, 240;
  cvt.u16.u32 %rs1, %r7;
  add.s32 %r8, %r3, -1;
  st.shared.u16 [%r8], %rs1;
$L1:
  bar.sync 0;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L2;
  ld.shared.u8 %rs2, [buf+2];
  st.global.u8 [%rd3], %rs2;
  ld.shared.u16 %rs3, [buf+2];
  st.global.u16 [%rd4], %rs3;
$L2:
  ret;
}
)";
}

checker::kernel::KernelResult check(bool firstBarrier) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("4", "--block");
  for (const auto& a : {"param_0=uint8[1]", "param_1=int16[1]"}) launch.args.push_back(frontend::parseArgSpec(a));
  const frontend::KernelProgram k = frontend::instantiateKernel(views(firstBarrier), "k.ptx", "k.ptx", launch);
  checker::kernel::KernelOptions o;
  o.asserts = {"param_0[0]==240 && param_1[0]==1008"};
  return checker::kernel::checkKernel(testing::ptxModel(), k, o);
}

}  // namespace

TEST_CASE("a read of bytes that a byte store and a later 16-bit store wrote gets each byte from its last writer", "[checker][kernel][values]") {
  const auto r = check(true);
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  CHECK(r.unknowns.empty());
}

TEST_CASE("without the barrier between the byte and the 16-bit stores no byte is forced", "[checker][kernel][values]") {
  const auto r = check(false);
  CHECK_FALSE(r.races.empty());  // the mixed-size race
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds != true);
}

}  // namespace ptxmm
