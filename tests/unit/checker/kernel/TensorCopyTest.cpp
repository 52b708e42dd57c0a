// Unit tests of TMA tensor copies through a CUtensorMap parameter, end to end from PTX: a 2-D tile load that
// the threads read after the mbarrier wait is race-free and its values (zero fill included) are the tensor's;
// read before the wait it races with the copy's async-proxy writes [§4.7]; a tile store of generic stores needs
// fence.proxy.async.shared::cta before it [§4.9].
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"
#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"

using namespace ptxmm;

namespace {

// The entry k(tmap, in, out, x, y) with %rd1 = the map's address, %r2/%r3 = x/y.
const std::string kEntry = R"(.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 in, .param .u64 out, .param .u32 x, .param .u32 y)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  mov.b64 %rd1, tmap;
  ld.param.u32 %r2, [x];
  ld.param.u32 %r3, [y];
)";

// k(tmap, in, out, x, y): thread 0 loads the 4x2 box at (x, y) of an 8x4 int32 tensor into `tile`; every thread
// (8) then reads its element of the tile (after `wait`) and stores it to out[tid].
std::string loadKernel(const std::string& wait) {
  return R"(.version 8.5
.target sm_90a
.address_size 64
.shared .align 128 .b8 tile[32];
.shared .align 8 .b64 bar;
)" + kEntry + R"(  ld.param.u64 %rd5, [out];
  cvta.to.global.u64 %rd6, %rd5;
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, bar;
  mov.u32 %r5, tile;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L_init;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  fence.mbarrier_init.release.cluster;
$L_init:
  bar.sync 0;
  @%p1 bra $L_wait;
  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %rd2, [%r4], 32;
  cvta.param.u64 %rd3, %rd1;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r2, %r3}], [%r4];
$L_wait:
)" + wait + R"(
  shl.b32 %r6, %r1, 2;
  add.s32 %r7, %r5, %r6;
  ld.shared.b32 %r8, [%r7];
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd8, %rd6, %rd7;
  st.global.b32 [%rd8], %r8;
  ret;
}
)";
}

const std::string kWait = "$L_spin:\n  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;\n  @!%p2 bra $L_spin;";

// k(tmap, in, out, x, y): every thread (8) stores tid + 1 into its element of `tile`, then (after `fence` and
// bar.sync) thread 0 stores the tile as the 4x2 box at (x, y) of the tensor over `out`.
std::string storeKernel(const std::string& fence) {
  return R"(.version 8.5
.target sm_90a
.address_size 64
.shared .align 128 .b8 tile[32];
)" + kEntry + R"(  mov.u32 %r1, %tid.x;
  mov.u32 %r5, tile;
  shl.b32 %r6, %r1, 2;
  add.s32 %r7, %r5, %r6;
  add.s32 %r8, %r1, 1;
  st.shared.b32 [%r7], %r8;
)" + fence + R"(
  bar.sync 0;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L_end;
  cvta.param.u64 %rd3, %rd1;
  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r2, %r3}], [%r5];
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
$L_end:
  ret;
}
)";
}

// Checks `ptx` on one CTA of 8 threads, `tmap` viewing buffer `viewed` (in[i] = 100 + i, in[0] = 0) as 8x4 int32.
checker::kernel::KernelResult check(const std::string& ptx, const std::string& viewed, int x, int y,
                                    const std::vector<std::string>& asserts) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("8", "--block");
  std::string in = "in=int32[32]=0";
  for (int i = 1; i < 32; ++i) in += "," + std::to_string(100 + i);
  for (const std::string& a : {in, std::string("out=int32[32]"), "tmap=tensormap(" + viewed + ",8x4,box=4x2)",
                              "x=" + std::to_string(x), "y=" + std::to_string(y)})
    launch.args.push_back(frontend::parseArgSpec(a));
  const frontend::KernelProgram k = frontend::instantiateKernel(ptx, "k.ptx", "k.ptx", launch);
  checker::kernel::KernelOptions o;
  o.asserts = asserts;
  return checker::kernel::checkKernel(testing::ptxModel(), k, o);
}

}  // namespace

TEST_CASE("a tensor tile load read after its mbarrier wait is race-free and copies the box", "[checker][kernel][tma]") {
  // The box at (2, 1): rows 1 and 2, columns 2..5; out[t] = in[(1 + t / 4) * 8 + 2 + t % 4].
  const auto r = check(loadKernel(kWait), "in", 2, 1, {"out[0]==110 && out[3]==113 && out[4]==118 && out[7]==121"});
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  REQUIRE(r.assertions[0].holds.has_value());
  CHECK(*r.assertions[0].holds);
}

TEST_CASE("a tensor tile load's out-of-bounds elements are zero-filled", "[checker][kernel][tma]") {
  // The box at (6, 3): columns 6, 7 and row 3 are in the tensor; columns 8, 9 and row 4 are not.
  const auto r = check(loadKernel(kWait), "in", 6, 3, {"out[0]==130 && out[1]==131 && out[2]==0 && out[3]==0 && out[4]==0 && out[7]==0"});
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  REQUIRE(r.assertions[0].holds.has_value());
  CHECK(*r.assertions[0].holds);
}

TEST_CASE("reading a tensor tile before the mbarrier wait races with the copy", "[checker][kernel][tma]") {
  const auto r = check(loadKernel(""), "in", 2, 1, {});
  REQUIRE_FALSE(r.races.empty());
  const auto& race = r.races[0];
  CHECK((race.first.instruction + race.second.instruction).find("cp.async.bulk.tensor") != std::string::npos);
  CHECK((race.first.instruction + race.second.instruction).find("ld.shared") != std::string::npos);
}

TEST_CASE("a tensor tile store of generic stores needs the async proxy fence", "[checker][kernel][tma]") {
  const std::string stored = "out[9]==1 && out[10]==2 && out[17]==5 && out[20]==8 && out[0]==0 && out[13]==0";  // the box at (1, 1)
  const auto fenced = check(storeKernel("  fence.proxy.async.shared::cta;"), "out", 1, 1, {stored});
  CHECK(fenced.races.empty());
  REQUIRE(fenced.assertions.size() == 1);
  REQUIRE(fenced.assertions[0].holds.has_value());
  CHECK(*fenced.assertions[0].holds);
  const auto unfenced = check(storeKernel(""), "out", 1, 1, {});
  REQUIRE_FALSE(unfenced.races.empty());
  CHECK(unfenced.races[0].kind == "different proxies");
}
