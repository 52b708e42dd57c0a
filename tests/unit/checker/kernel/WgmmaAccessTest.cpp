// The kernel checker on wgmma (EvalWgmma.cpp, MatrixDescriptor.hpp): 16 threads write the 256-byte B operand
// with generic stores, a warpgroup of 128 threads runs wgmma.mma_async on it through a matrix descriptor. Every
// thread's wgmma reads the operand in the async proxy [ptx-model §4.13]: without fence.proxy.async after the
// writes the reads race with them (different proxies); with it they are ordered; a store to the operand after
// commit_group but before wait_group races with the reads; a descriptor ptxmm does not compute is UNKNOWN; the
// transposed layouts are refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

using Catch::Contains;

// `fence` after the writes; `afterCommit` between commit_group and wait_group; `descriptor` computes %rd2.
std::string warpgroup(const std::string& fence, const std::string& afterCommit = "",
                      const std::string& descriptor = "shr.u32 %r5, %r2, 4;\n cvt.u64.u32 %rd1, %r5;\n or.b64 %rd2, %rd1, 68720001024;",
                      const std::string& trans = "0") {
  return R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<16>;
 .reg .b64 %rd<8>;
 .reg .f32 %f<8>;
 .shared .align 128 .b32 sB[64];
 mov.u32 %r1, %tid.x;
 mov.u32 %r2, sB;
 setp.ge.u32 %p1, %r1, 16;
 shl.b32 %r3, %r1, 4;
 add.s32 %r4, %r2, %r3;
 @!%p1 st.shared.v4.u32 [%r4], {%r1, %r1, %r1, %r1};
 )" + fence + R"(
 bar.sync 0;
 )" + descriptor + R"(
 mov.f32 %f1, 0f00000000;
 mov.f32 %f2, 0f00000000;
 mov.f32 %f3, 0f00000000;
 mov.f32 %f4, 0f00000000;
 wgmma.fence.sync.aligned;
 wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, {%r1,%r1,%r1,%r1}, %rd2, 1, 1, 1, )" + trans + R"(;
 wgmma.commit_group.sync.aligned;
 )" + afterCommit + R"(
 wgmma.wait_group.sync.aligned 0;
 ld.param.u64 %rd3, [out];
 cvta.to.global.u64 %rd4, %rd3;
 mul.wide.u32 %rd5, %r1, 4;
 add.s64 %rd6, %rd4, %rd5;
 st.global.f32 [%rd6], %f1;
 ret;
}
)";
}

frontend::KernelProgram instantiate(const std::string& ptx) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("128", "--block");
  launch.args.push_back(frontend::parseArgSpec("out=float32[128]"));
  return frontend::instantiateKernel(ptx, "k.ptx", "k.ptx", launch);
}

checker::kernel::KernelResult check(const std::string& ptx) {
  return checker::kernel::checkKernel(testing::ptxModel(), instantiate(ptx), {});
}

}  // namespace

TEST_CASE("wgmma reads its descriptor's bytes in every thread of the warpgroup", "[checker][kernel][wgmma]") {
  const frontend::KernelProgram k = instantiate(warpgroup("fence.proxy.async.shared::cta;"));
  for (int t : {0, 77}) {
    const auto& code = k.program.threads[static_cast<std::size_t>(t)].code;
    const auto mma = std::find_if(code.begin(), code.end(), [](const frontend::Instruction& in) { return in.op == frontend::Opcode::WgmmaMma; });
    REQUIRE(mma != code.end());
    REQUIRE(mma->operands.size() == 1 + 64);  // the result, then sB's 64 words
    CHECK(mma->operands[1].name == "sB@cta0[0]");
    CHECK(mma->operands[64].name == "sB@cta0[63]");
  }
}

TEST_CASE("wgmma after generic stores and fence.proxy.async: no race", "[checker][kernel][wgmma]") {
  const auto r = check(warpgroup("fence.proxy.async.shared::cta;"));
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == checker::kernel::KernelStatus::Ok);
}

TEST_CASE("wgmma after generic stores without fence.proxy.async: a race of different proxies", "[checker][kernel][wgmma]") {
  const auto r = check(warpgroup(""));
  REQUIRE_FALSE(r.races.empty());
  CHECK(r.races.front().kind == "different proxies");
}

TEST_CASE("a store to the operand before wait_group races with the wgmma's reads", "[checker][kernel][wgmma]") {
  const auto r = check(warpgroup("fence.proxy.async.shared::cta;", "@!%p1 st.shared.u32 [%r4], %r1;"));
  REQUIRE_FALSE(r.races.empty());
  CHECK(r.races.front().kind == "different proxies");
}

TEST_CASE("a descriptor ptxmm does not compute leaves wgmma's reads unknown", "[checker][kernel][wgmma]") {
  const auto r = check(warpgroup("fence.proxy.async.shared::cta;", "",
                                 "ld.shared.u32 %r5, [%r2];\n cvt.u64.u32 %rd1, %r5;\n or.b64 %rd2, %rd1, 68720001024;"));
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
  CHECK(std::any_of(r.unknowns.begin(), r.unknowns.end(),
                    [](const std::string& u) { return u.find("matrix descriptor of wgmma's operand B") != std::string::npos; }));
}

TEST_CASE("wgmma forms ptxmm does not model are located errors", "[checker][kernel][wgmma]") {
  CHECK_THROWS_WITH(instantiate(warpgroup("", "", "mov.u64 %rd2, 0;", "1")),
                    Contains("the transposed (MN-major) smem layouts (imm-trans = 1) are not supported yet"));
}

}  // namespace ptxmm
