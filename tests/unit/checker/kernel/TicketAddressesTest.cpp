// Accesses at addresses built from an atomic add's returned value (TicketAddresses.hpp): warp-aggregated stream
// compaction, where lane 0 reserves slots with one atom.add per warp and shfl.sync broadcasts the base, is told
// apart and decided; every case where the tickets may collide or the bytes may meet another access stays
// UNKNOWN (or is a race found on the concrete accesses), never race-free.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "checker/kernel/KernelChecker.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

namespace ptxmm {
namespace {

// nvcc's code for cases/kernels/compact-ballot-atomic.cu: each warp votes on in[tid] > 0, lane 0 adds the
// warp's count to count[0] and the base is shuffled from lane 0; each kept lane stores in[tid] at out[base + rank].
const std::string kCompact = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry compact(.param .u64 in, .param .u64 out, .param .u64 count)
{
  .reg .pred %p<6>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd3, [in];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [count];
  mov.u32 %r8, %tid.x;
  and.b32 %r1, %r8, 31;
  cvta.to.global.u64 %rd4, %rd3;
  mul.wide.s32 %rd5, %r8, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u32 %r2, [%rd6];
  setp.gt.s32 %p2, %r2, 0;
  mov.u32 %r7, 0;
  mov.u32 %r9, -1;
  vote.sync.ballot.b32 %r3, %p2, %r9;
  setp.ne.s32 %p4, %r1, 0;
  mov.u32 %r20, %r7;
  @%p4 bra $L2;
  cvta.to.global.u64 %rd7, %rd2;
  popc.b32 %r10, %r3;
  atom.global.add.u32 %r20, [%rd7], %r10;
$L2:
  mov.u32 %r11, 31;
  shfl.sync.idx.b32 %r6|%p1, %r20, %r7, %r11, %r9;
  setp.lt.s32 %p5, %r2, 1;
  @%p5 bra $L4;
  mov.u32 %r14, -1;
  shl.b32 %r15, %r14, %r1;
  not.b32 %r16, %r15;
  and.b32 %r17, %r3, %r16;
  popc.b32 %r18, %r17;
  add.s32 %r19, %r6, %r18;
  cvta.to.global.u64 %rd8, %rd1;
  mul.wide.s32 %rd9, %r19, 4;
  add.s64 %rd10, %rd8, %rd9;
  st.global.u32 [%rd10], %r2;
$L4:
  ret;
}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

frontend::KernelProgram instantiate(const std::string& ptx, int ctas = 1, int threads = 64) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3(std::to_string(ctas), "--grid");
  launch.block = frontend::parseDim3(std::to_string(threads), "--block");
  std::string in = "param_0=int32[128]=5,0,7";
  for (int i = 3; i < 32; ++i) in += ",0";
  in += ",9";  // in[32]: warp 1's lane 0
  for (const auto& a : {in, std::string("param_1=int32[64]"), std::string("param_2=int32[2]")})
    launch.args.push_back(frontend::parseArgSpec(a));
  return frontend::instantiateKernel(ptx, "k.ptx", "k.ptx", launch);
}

checker::kernel::KernelResult check(const frontend::KernelProgram& k, const std::vector<std::string>& asserts,
                                    const std::vector<std::string>& observes = {}) {
  checker::kernel::KernelOptions o;
  o.asserts = asserts;
  o.observes = observes;
  return checker::kernel::checkKernel(testing::ptxModel(), k, o);
}

bool mentions(const checker::kernel::KernelResult& r, const std::string& text) {
  return std::any_of(r.unknowns.begin(), r.unknowns.end(), [&](const std::string& u) { return u.find(text) != std::string::npos; });
}

TEST_CASE("the shuffled base of a warp-aggregated atomic is one ticket per warp, told apart from the other warp's", "[checker][kernel][tickets]") {
  const frontend::KernelProgram k = instantiate(kCompact);
  REQUIRE(k.tickets.size() == 2);  // lane 0 of each warp
  REQUIRE(k.symbolic.size() == 3);  // the kept lanes 0 and 2 of warp 0, lane 0 of warp 1
  for (const auto& s : k.symbolic) {
    REQUIRE(s.address.has_value());
    CHECK(s.address->term.scale == 4);
  }
  const auto r = check(k, {"param_2[0]==3 && param_1[3]==0"});
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == checker::kernel::KernelStatus::Ok);
  REQUIRE(r.assertions.size() == 1);
  REQUIRE(r.assertions[0].holds.has_value());  // out[3] is beyond every slot the tickets can reserve
  CHECK(*r.assertions[0].holds);
}

TEST_CASE("the final values of reserved slots follow the orders of the counter's atomics", "[checker][kernel][tickets]") {
  // Warp 0 reserves 2 slots (5, 7), warp 1 one (9): out[0..2] is 5,7,9 or 9,5,7.
  const auto r = check(instantiate(kCompact), {"param_1[0]==5", "param_1[1]!=9 && param_1[2]!=5"}, {"param_1[0]", "param_1[1]", "param_1[2]"});
  REQUIRE(r.assertions.size() == 2);
  REQUIRE(r.assertions[0].holds.has_value());
  CHECK_FALSE(*r.assertions[0].holds);  // 9 when warp 1's atomic comes first
  REQUIRE(r.assertions[1].holds.has_value());
  CHECK(*r.assertions[1].holds);
  REQUIRE(r.observed.size() == 3);
  CHECK(r.observed[0].values == std::vector<std::string>{"5", "9"});
  CHECK(r.observed[1].values == std::vector<std::string>{"5", "7"});
  CHECK(r.observed[2].values == std::vector<std::string>{"7", "9"});
  CHECK(r.status == checker::kernel::KernelStatus::Ok);
  CHECK(r.hasFinding());
}

TEST_CASE("slots written with a value ptxmm does not compute keep their claims undecided", "[checker][kernel][tickets]") {
  const auto r = check(instantiate(replaced(kCompact, "st.global.u32 [%rd10], %r2;", "st.global.u32 [%rd10], %r6;")), {}, {"param_1[0]"});
  REQUIRE(r.observed.size() == 1);
  CHECK_FALSE(r.observed[0].complete);
  CHECK(r.observed[0].reason.find("stores a value ptxmm does not compute") != std::string::npos);
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
}

TEST_CASE("tickets of two different counters may collide: not race-free", "[checker][kernel][tickets]") {
  // Warp w reserves from count[w]: both warps may get base 0 and write out[0].
  const std::string ptx = replaced(kCompact, "cvta.to.global.u64 %rd7, %rd2;",
                                   "cvta.to.global.u64 %rd7, %rd2;\n  shr.u32 %r21, %r8, 5;\n  mul.wide.u32 %rd11, %r21, 4;\n"
                                   "  add.s64 %rd7, %rd7, %rd11;");
  const auto r = check(instantiate(replaced(ptx, ".reg .b64 %rd<11>;", ".reg .b64 %rd<12>;")), {});
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
  CHECK(mentions(r, "may touch the bytes"));
}

TEST_CASE("a base that is not broadcast meets the other lanes' slots: a race on them, the ticket's store undecided", "[checker][kernel][tickets]") {
  // Without the shuffle only lane 0 has the ticket; the other kept lanes write out[0 + rank] in every warp.
  std::string in = "param_0=int32[64]=5,6,7";
  for (int i = 3; i < 32; ++i) in += ",0";
  in += ",9,8";
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("64", "--block");
  for (const auto& a : {in, std::string("param_1=int32[64]"), std::string("param_2=int32[1]")})
    launch.args.push_back(frontend::parseArgSpec(a));
  const auto k = frontend::instantiateKernel(replaced(kCompact, "shfl.sync.idx.b32 %r6|%p1, %r20, %r7, %r11, %r9;", "mov.u32 %r6, %r20;"),
                                             "k.ptx", "k.ptx", launch);
  const auto r = check(k, {});
  CHECK_FALSE(r.races.empty());  // warp 0's lane 1 and warp 1's lane 1 both store out[1]
  CHECK(mentions(r, "may touch the bytes"));
}

TEST_CASE("a counter also written by a plain store gives no usable tickets", "[checker][kernel][tickets]") {
  const std::string ptx = replaced(kCompact, "$L2:", "st.global.u32 [%rd7], %r10;\n$L2:");
  const auto r = check(instantiate(ptx), {});
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
  CHECK(mentions(r, "is also written at"));
}

TEST_CASE("cta-scoped atomics of different CTAs are not morally strong: their tickets may collide", "[checker][kernel][tickets]") {
  const std::string ptx = replaced(kCompact, "atom.global.add.u32", "atom.relaxed.cta.global.add.u32");
  const auto r = check(instantiate(ptx, 2, 32), {});
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
  CHECK(mentions(r, "not morally strong"));
}

TEST_CASE("a ticket drawn in a loop is not one value", "[checker][kernel][tickets]") {
  // Lane 0 draws a second ticket if the first is 0 (a residual branch back to the atomic): the register the
  // shuffle reads may hold either, so no ticket of that atomic is used.
  const std::string ptx = replaced(kCompact, "atom.global.add.u32 %r20, [%rd7], %r10;",
                                   "$L1:\n  atom.global.add.u32 %r20, [%rd7], %r10;\n  setp.eq.s32 %p3, %r20, 0;\n  @%p3 bra $L1;");
  const auto r = check(instantiate(ptx), {});
  CHECK(r.status == checker::kernel::KernelStatus::Unknown);
}

// nvcc's code for cases/kernels/compact-append-broadcast.cu ("atomicAggInc"): the leader is the lowest kept lane
// (brev + bfind of the ballot) and the shuffle's member mask is the ballot. Discovering which bytes are written,
// every load is taken as changing, so the leader is unknown and both sides of `lane == leader` reach the shuffle;
// that used to end the launch with "warp-collective instructions on two paths".
const char* const kAggInc = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry append(.param .u64 in, .param .u64 out, .param .u64 count)
{
  .reg .pred %p<6>;
  .reg .b32 %r<22>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd3, [in];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [count];
  mov.u32 %r8, %tid.x;
  and.b32 %r1, %r8, 31;
  cvta.to.global.u64 %rd4, %rd3;
  mul.wide.u32 %rd5, %r8, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u32 %r2, [%rd6];
  setp.lt.s32 %p2, %r2, 1;
  setp.gt.s32 %p3, %r2, 0;
  mov.u32 %r9, -1;
  vote.sync.ballot.b32 %r3, %p3, %r9;
  @%p2 bra $L4;
  brev.b32 %r11, %r3;
  bfind.shiftamt.u32 %r5, %r11;
  setp.ne.s32 %p4, %r1, %r5;
  mov.u32 %r21, 0;
  @%p4 bra $L3;
  popc.b32 %r12, %r3;
  cvta.to.global.u64 %rd7, %rd2;
  atom.global.add.u32 %r21, [%rd7], %r12;
$L3:
  mov.u32 %r13, 31;
  shfl.sync.idx.b32 %r14|%p5, %r21, %r5, %r13, %r3;
  mov.u32 %r15, -1;
  shl.b32 %r16, %r15, %r1;
  not.b32 %r17, %r16;
  and.b32 %r18, %r3, %r17;
  popc.b32 %r19, %r18;
  add.s32 %r20, %r14, %r19;
  cvta.to.global.u64 %rd8, %rd1;
  mul.wide.s32 %rd9, %r20, 4;
  add.s64 %rd10, %rd8, %rd9;
  st.global.u32 [%rd10], %r2;
$L4:
  ret;
}
)";

TEST_CASE("a leader chosen from a ballot of loaded values: the shuffle is met and its tickets told apart", "[checker][kernel][tickets]") {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("64", "--block");
  std::string in = "param_0=int32[64]=0,5,6,7";
  for (int i = 4; i < 33; ++i) in += ",0";
  in += ",9,8";  // in[33], in[34]
  for (const auto& a : {in, std::string("param_1=int32[64]"), std::string("param_2=int32[1]=32")})
    launch.args.push_back(frontend::parseArgSpec(a));
  const auto k = frontend::instantiateKernel(kAggInc, "k.ptx", "k.ptx", launch);
  REQUIRE(k.tickets.size() == 2);
  const auto r = check(k, {"param_2[0]==37 && param_1[1]==0 && param_1[37]==0"}, {"param_1[32]", "param_1[34]"});
  CHECK(r.races.empty());
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  REQUIRE(r.observed.size() == 2);
  CHECK(r.observed[0].values == std::vector<std::string>{"5", "9"});
  CHECK(r.observed[1].values == std::vector<std::string>{"5", "7"});
}

// Triton's scalar tl.atomic_add (triton-ticket-slots.ptx): lane 0 does the atomic and shuffles the result to the
// warp from itself, then stores it. A shuffle from the lane itself is its own register: the residual code copies
// it, so the stored ticket is a value the engines compute (it used to be opaque).
const char* const kOwnShuffle = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry tickets(.param .u64 count, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [count];
  ld.param.u64 %rd5, [out];
  mov.u32 %r5, %tid.x;
  and.b32 %r6, %r5, 31;
  setp.eq.b32 %p1, %r6, 0;
  mov.b32 %r2, 1;
  mov.u32 %r1, 0x0;
  @%p1 atom.global.gpu.acq_rel.add.u32 %r1, [ %rd1 + 0 ], %r2;
  shfl.sync.idx.b32 %r4, %r1, 0, 31, -1;
  mov.u32 %r7, %ctaid.x;
  mad.wide.u32 %rd3, %r7, 4, %rd5;
  @%p1 st.global.b32 [ %rd3 + 0 ], { %r4 };
  ret;
}
)";

TEST_CASE("a shuffle from the lane itself keeps the value the residual code computes", "[checker][kernel][tickets]") {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("2", "--grid");
  launch.block = frontend::parseDim3("32", "--block");
  for (const auto& a : {"param_0=int32[1]", "param_1=int32[2]"}) launch.args.push_back(frontend::parseArgSpec(a));
  const auto k = frontend::instantiateKernel(kOwnShuffle, "k.ptx", "k.ptx", launch);
  const auto r = check(k, {"param_1[0]!=param_1[1]"}, {"param_1[0]"});
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  REQUIRE(r.observed.size() == 1);
  CHECK(r.observed[0].values == std::vector<std::string>{"0", "1"});
}

}  // namespace
}  // namespace ptxmm

namespace ptxmm {
namespace {

// Thread 0 takes a ticket from param_0[0] and stores 1 into param_1[ticket]; then (with the barrier, after a
// bar.sync) thread 32 does the same with 2. The barrier orders the two atomics: thread 0's ticket is 0.
std::string orderedTickets(bool barrier) {
  return std::string(R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 count, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<9>;
  ld.param.u64 %rd1, [count];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra $L1;
  atom.global.add.u32 %r2, [%rd3], 1;
  mul.wide.s32 %rd5, %r2, 4;
  add.s64 %rd6, %rd4, %rd5;
  mov.u32 %r3, 1;
  st.global.u32 [%rd6], %r3;
$L1:
)") + (barrier ? "  bar.sync 0;\n" : "") + R"(
  setp.ne.s32 %p2, %r1, 32;
  @%p2 bra $L2;
  atom.global.add.u32 %r4, [%rd3], 1;
  mul.wide.s32 %rd7, %r4, 4;
  add.s64 %rd8, %rd4, %rd7;
  mov.u32 %r5, 2;
  st.global.u32 [%rd8], %r5;
$L2:
  ret;
}
)";
}

frontend::KernelProgram instantiateOrdered(bool barrier) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3("64", "--block");
  for (const auto& a : {std::string("param_0=int32[1]"), std::string("param_1=int32[2]")})
    launch.args.push_back(frontend::parseArgSpec(a));
  return frontend::instantiateKernel(orderedTickets(barrier), "k.ptx", "k.ptx", launch);
}

}  // namespace

TEST_CASE("slots of atomics a barrier orders are not taken from every order of the counter", "[checker][kernel][tickets]") {
  // With the barrier, thread 0 always gets ticket 0: out[0] == 1 holds, and must never be reported failing.
  const auto ordered = check(instantiateOrdered(true), {"param_1[0]==1 && param_1[1]==2"});
  REQUIRE(ordered.assertions.size() == 1);
  CHECK(ordered.assertions[0].holds != false);
  // Without it either thread may come first: both orders are permitted, and the claim fails.
  const auto free = check(instantiateOrdered(false), {"param_1[0]==1 && param_1[1]==2"}, {"param_1[0]"});
  REQUIRE(free.assertions.size() == 1);
  REQUIRE(free.assertions[0].holds.has_value());
  CHECK_FALSE(*free.assertions[0].holds);
  REQUIRE(free.observed.size() == 1);
  CHECK(free.observed[0].values == std::vector<std::string>{"1", "2"});
}

}  // namespace ptxmm
