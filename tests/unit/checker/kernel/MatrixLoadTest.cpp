// The kernel checker on ldmatrix (EvalMatrix.cpp): warp 1 writes an 8x8 tile of 16-bit elements with st.shared,
// warp 0 loads it with ldmatrix. Each lane of warp 0 reads exactly the word it receives, so after __syncthreads
// (bar.sync) there is no race and the loaded values are the stored ones; with only __syncwarp (bar.warp.sync,
// which orders nothing between warps [ptx-model §4.4]) each ldmatrix word races with the store of warp 1.
#include <catch2/catch.hpp>

#include <string>

#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

std::string tile(const std::string& sync) {
  return R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<16>;
 .reg .b64 %rd<8>;
 .shared .align 16 .b32 s[32];
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r1, %tid.x;
 mov.u32 %r2, s;
 setp.lt.u32 %p1, %r1, 32;
 @%p1 bra $L1;
 sub.s32 %r3, %r1, 32;
 shl.b32 %r4, %r3, 2;
 add.s32 %r5, %r2, %r4;
 st.shared.u32 [%r5], %r1;
$L1:
 )" + sync + R"(
 @!%p1 bra $L2;
 and.b32 %r6, %r1, 7;
 shl.b32 %r7, %r6, 4;
 add.s32 %r8, %r2, %r7;
 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r10}, [%r8];
 mul.wide.u32 %rd3, %r1, 4;
 add.s64 %rd4, %rd2, %rd3;
 st.global.u32 [%rd4], %r10;
$L2:
 ret;
}
)";
}

checker::kernel::KernelResult check(const std::string& ptx, const std::vector<std::string>& asserts) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("64", "--block");
  launch.args.push_back(frontend::parseArgSpec("out=int32[32]"));
  checker::kernel::KernelOptions o;
  o.asserts = asserts;
  return checker::kernel::checkKernel(testing::ptxModel(), frontend::instantiateKernel(ptx, "k.ptx", "k.ptx", launch), o);
}

}  // namespace

TEST_CASE("ldmatrix after __syncthreads reads the other warp's tile without a race", "[checker][kernel][matrix]") {
  // Lane 5 receives word 1 of row 1: s[5], which thread 37 stored.
  const auto r = check(tile("bar.sync 0;"), {"out[5]==37 && out[31]==63"});
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == checker::kernel::KernelStatus::Ok);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
}

TEST_CASE("ldmatrix after only __syncwarp races with the other warp's stores", "[checker][kernel][matrix]") {
  const auto r = check(tile("bar.warp.sync -1;"), {});
  REQUIRE_FALSE(r.races.empty());
  CHECK(r.races.front().kind == "no synchronisation");
  CHECK(r.hasFinding());
}

}  // namespace ptxmm
