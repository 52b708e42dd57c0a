// Claims on final memory when the residual code leaves something out (found by writing unseen kernels: a
// ballot-compaction kernel printed "Assert ...: holds" and "Observe out[0]: 0" beside an UNKNOWN verdict). A store
// through an address ptxmm does not compute may write any element of the buffers it can reach, so no claim on
// them is decided — neither "holds" nor a counterexample; claims on other buffers still are.
#include <catch2/catch.hpp>

#include <algorithm>

#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

// Thread 0 writes idx[0] = 1; every thread then stores 5 to out[idx[0]] (an address that depends on a value some
// thread writes: symbolic) and 7 to other[tid]. Without a .cu beside it the buffers are named param_0 (idx),
// param_1 (out) and param_2 (other).
const char* const kScatter = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry scatter(.param .u64 idx, .param .u64 out, .param .u64 other)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<12>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [idx];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd7, [other];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  cvta.to.global.u64 %rd8, %rd7;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L1;
  mov.u32 %r3, 1;
  st.global.u32 [%rd3], %r3;
$L1:
  ld.global.u32 %r2, [%rd3];
  mul.wide.s32 %rd5, %r2, 4;
  add.s64 %rd6, %rd4, %rd5;
  mov.u32 %r4, 5;
  st.global.u32 [%rd6], %r4;
  mul.wide.u32 %rd9, %r1, 4;
  add.s64 %rd10, %rd8, %rd9;
  mov.u32 %r5, 7;
  st.global.u32 [%rd10], %r5;
  ret;
}
)";

// A branch on the clock (an opaque value): the thread's code past it is not exact.
const char* const kClocked = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry clocked(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %clock;
  setp.eq.s32 %p1, %r1, 7;
  @%p1 bra $L1;
  mov.u32 %r2, 3;
  st.global.u32 [%rd2], %r2;
$L1:
  ret;
}
)";

checker::kernel::KernelResult check(const std::vector<std::string>& asserts) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("2", "--block");
  for (const auto& a : {"param_0=int32[1]", "param_1=int32[2]", "param_2=int32[2]"}) launch.args.push_back(frontend::parseArgSpec(a));
  const frontend::KernelProgram k = frontend::instantiateKernel(kScatter, "k.ptx", "k.ptx", launch);
  REQUIRE(k.symbolic.size() == 2);  // one store per thread
  CHECK(k.symbolic[0].write);
  checker::kernel::KernelOptions o;
  o.asserts = asserts;
  return checker::kernel::checkKernel(testing::ptxModel(), k, o);
}

TEST_CASE("a store through an address ptxmm does not compute leaves the claims on its buffer undecided", "[checker][kernel][claims]") {
  const auto r = check({"param_1[0]==0", "param_2[0]==7 && param_2[1]==7"});
  REQUIRE(r.assertions.size() == 2);
  CHECK_FALSE(r.assertions[0].holds.has_value());  // out[0] is never written by a known address, yet it may be
  CHECK(r.assertions[0].reason.find("param_1[0] may be written by the access at") != std::string::npos);
  REQUIRE(r.assertions[1].holds.has_value());  // the other buffer is out of the store's reach
  CHECK(*r.assertions[1].holds);
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
  // both threads' stores are on one line: one reason, with the number of threads it concerns
  const auto symbolic = std::count_if(r.unknowns.begin(), r.unknowns.end(),
                                      [](const std::string& u) { return u.find("depends on values read from memory") != std::string::npos; });
  CHECK(symbolic == 1);
  CHECK(std::any_of(r.unknowns.begin(), r.unknowns.end(), [](const std::string& u) { return u.find("(2 threads)") != std::string::npos; }));
}

TEST_CASE("a thread whose code is not exact leaves every claim undecided", "[checker][kernel][claims]") {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("1", "--block");
  launch.args.push_back(frontend::parseArgSpec("param_0=int32[1]"));
  const frontend::KernelProgram k = frontend::instantiateKernel(kClocked, "k.ptx", "k.ptx", launch);
  REQUIRE_FALSE(k.incomplete.empty());
  checker::kernel::KernelOptions o;
  o.asserts = {"param_0[0]==3", "param_0[0]==0"};
  const auto r = checker::kernel::checkKernel(testing::ptxModel(), k, o);
  REQUIRE(r.assertions.size() == 2);
  for (const auto& a : r.assertions) {
    CHECK_FALSE(a.holds.has_value());
    CHECK(a.reason.find("is not exact") != std::string::npos);
  }
}

// Each lane stores its id, then after the barrier sums (redux.sync) what its neighbour stored: the sum is 496,
// but ptxmm does not carry loaded values across lanes, so the redux result is opaque. An opaque value over no
// computed inputs used to fold into the constant 0, and the claim was decided on it ("out[0]: 0", exit 0).
const char* kReduxOfLoads = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 sm[128];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  xor.b32 %r5, %r1, 1;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r2, %r6;
  ld.shared.u32 %r8, [%r7];
  mov.b32 %r9, -1;
  redux.sync.add.s32 %r10, %r8, %r9;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.global.u32 [%rd2], %r10;
  ret;
}
)";

TEST_CASE("a value no thread computes (a warp sum of loaded values) decides no claim", "[checker][kernel][claims]") {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("32", "--block");
  launch.args.push_back(frontend::parseArgSpec("out=int32[1]"));
  const frontend::KernelProgram k = frontend::instantiateKernel(kReduxOfLoads, "k.ptx", "k.ptx", launch);
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0]==0", "param_0[0]==496"};  // the PTX parameter's own name and param_I both name it
  o.observes = {"out[0]"};
  const auto r = checker::kernel::checkKernel(testing::ptxModel(), k, o);
  REQUIRE(r.assertions.size() == 2);
  for (const auto& a : r.assertions) CHECK_FALSE(a.holds.has_value());
  REQUIRE(r.observed.size() == 1);
  CHECK_FALSE(r.observed[0].complete);
  CHECK(r.observed[0].values.empty());
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
}

}  // namespace
}  // namespace ptxmm

namespace ptxmm {
namespace {

// Thread 1 stores idx[0] = 0; thread 0 loads idx[0] (3 or 0) and stores 7 at out[idx]; thread 5 copies out[0] into
// res[0]. The store's address depends on a loaded value ptxmm does not compute, so out[0] may be 0 or 7.
const char* const kReadOfUncomputedStore = R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 idx, .param .u64 out, .param .u64 res)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd4, [idx];
  ld.param.u64 %rd5, [out];
  ld.param.u64 %rd3, [res];
  cvta.to.global.u64 %rd1, %rd5;
  cvta.to.global.u64 %rd2, %rd4;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 1;
  @%p1 bra $L2;
  mov.u32 %r2, 0;
  st.global.u32 [%rd2], %r2;
$L2:
  setp.ne.s32 %p2, %r1, 0;
  @%p2 bra $L4;
  ld.global.u32 %r3, [%rd2];
  mul.wide.s32 %rd6, %r3, 4;
  add.s64 %rd7, %rd1, %rd6;
  mov.u32 %r4, 7;
  st.global.u32 [%rd7], %r4;
$L4:
  setp.ne.s32 %p3, %r1, 5;
  @%p3 bra $L6;
  ld.global.u32 %r5, [%rd1];
  cvta.to.global.u64 %rd8, %rd3;
  st.global.u32 [%rd8], %r5;
$L6:
  ret;
}
)";

}  // namespace

TEST_CASE("a claim fed by a read of a store whose address is not computed is not decided", "[checker][kernel][claims]") {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("32", "--block");
  for (const auto& a : {std::string("idx=int32[1]=3"), std::string("out=int32[4]"), std::string("res=int32[1]")})
    launch.args.push_back(frontend::parseArgSpec(a));
  const frontend::KernelProgram k = frontend::instantiateKernel(kReadOfUncomputedStore, "k.ptx", "k.ptx", launch);
  checker::kernel::KernelOptions o;
  o.asserts = {"res[0]==0"};
  const auto r = checker::kernel::checkKernel(testing::ptxModel(), k, o);
  REQUIRE(r.assertions.size() == 1);
  CHECK_FALSE(r.assertions[0].holds.has_value());  // it was reported holding: res[0] may be 7
}
}  // namespace ptxmm
