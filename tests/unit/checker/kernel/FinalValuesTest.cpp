// Final values of memory that many threads update with atomics (FinalValues): which updates end in one value
// whatever their order, and which must not be decided (a plain write beside them, a read before the last one, a
// mix that does not commute, a compare-and-swap that may not write).
#include <catch2/catch.hpp>

#include <cstring>

#include "checker/kernel/FinalValuesCombine.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using testing::TestLaunch;
using testing::idx;

namespace {

// One CTA of `threads` threads running `code(t)`, x_0 starting at `init`; checks --assert and --observe of x[0].
KernelResult checkX(int threads, std::int64_t init, const std::function<std::vector<std::string>(int)>& code,
                    const std::string& claim) {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {threads, 1, 1};
  l.init = {"x_0 = " + std::to_string(init)};
  l.code = [&](const frontend::KernelThread& k) { return code(k.tid.x); };
  checker::kernel::KernelOptions o;
  o.asserts = {claim};
  o.observes = {"x[0]"};
  return testing::checkLaunch(l, o);
}

}  // namespace

TEST_CASE("a compare-and-swap whose compare fails writes nothing: the final value is the old one", "[checker][kernel][final]") {
  const auto cas = [](int) { return std::vector<std::string>{"atom.relaxed.gpu.cas r0, x_0, 5, 1"}; };
  const KernelResult fails = checkX(1, 0, cas, "x[0] == 0");
  REQUIRE(fails.assertions.size() == 1);
  CHECK(fails.assertions[0].holds == true);
  REQUIRE(fails.observed.size() == 1);
  CHECK(fails.observed[0].values == std::vector<std::string>{"0"});
  const KernelResult succeeds = checkX(1, 5, cas, "x[0] == 1");
  REQUIRE(succeeds.assertions.size() == 1);
  CHECK(succeeds.assertions[0].holds == true);
  CHECK(succeeds.observed[0].values == std::vector<std::string>{"1"});
}

namespace {

// An update as FinalValues builds it for a PTX atom of `op` with operand `b` (untyped 64-bit, as litmus atomics).
checker::kernel::RmwUpdate rmw(int write, frontend::AtomOp op, std::int64_t b) {
  using frontend::AtomOp;
  checker::kernel::RmwUpdate u;
  u.write = write;
  u.op = op;
  u.shape = std::to_string(static_cast<int>(op)) + " " + std::to_string(b);
  u.apply = [op, b](std::int64_t x) -> std::optional<std::int64_t> {
    switch (op) {
      case AtomOp::Or: return x | b;
      case AtomOp::And: return x & b;
      case AtomOp::Xor: return x ^ b;
      case AtomOp::Max: return std::max(x, b);
      case AtomOp::Min: return std::min(x, b);
      case AtomOp::Exch: return b;
      case AtomOp::Inc: return x >= b ? 0 : x + 1;                 // PTX atom.inc
      case AtomOp::Dec: return (x == 0 || x > b) ? b : x - 1;      // PTX atom.dec
      default: return x + b;
    }
  };
  return u;
}

std::vector<checker::kernel::RmwUpdate> repeat(int n, frontend::AtomOp op, std::int64_t b) {
  std::vector<checker::kernel::RmwUpdate> out;
  for (int i = 0; i < n; ++i) out.push_back(rmw(i, op, b));
  return out;
}

const auto kUnordered = [](int, int) { return false; };

}  // namespace

TEST_CASE("atom.inc / atom.dec with one bound end in f^n(base) whatever the order, at every boundary", "[checker][kernel][final]") {
  using checker::kernel::combineUpdates;
  using frontend::AtomOp;
  // inc: (x + n) mod (b + 1) from x <= b; from x > b the first wraps to 0: (n - 1) mod (b + 1).
  CHECK(combineUpdates(0, repeat(64, AtomOp::Inc, 7), kUnordered) == 0);
  CHECK(combineUpdates(0, repeat(9, AtomOp::Inc, 7), kUnordered) == 1);
  CHECK(combineUpdates(7, repeat(1, AtomOp::Inc, 7), kUnordered) == 0);  // old == b wraps
  CHECK(combineUpdates(6, repeat(1, AtomOp::Inc, 7), kUnordered) == 7);  // old == b - 1 does not
  CHECK(combineUpdates(10, repeat(3, AtomOp::Inc, 7), kUnordered) == 2);
  CHECK(combineUpdates(5, repeat(4, AtomOp::Inc, 0), kUnordered) == 0);  // bound 0: always 0
  // dec: (x - n) mod (b + 1) from x <= b; 0 and x > b reload b.
  CHECK(combineUpdates(0, repeat(64, AtomOp::Dec, 4), kUnordered) == 1);
  CHECK(combineUpdates(0, repeat(1, AtomOp::Dec, 4), kUnordered) == 4);
  CHECK(combineUpdates(9, repeat(2, AtomOp::Dec, 4), kUnordered) == 3);
  // Two bounds do not commute (from 3: inc_3 then inc_5 gives 1, inc_5 then inc_3 gives 0): not decided.
  CHECK_FALSE(combineUpdates(3, {rmw(0, AtomOp::Inc, 3), rmw(1, AtomOp::Inc, 5)}, kUnordered));
  // Nor do inc and dec of one bound (from 9 > 4: inc then dec gives 4, dec then inc 0).
  CHECK_FALSE(combineUpdates(9, {rmw(0, AtomOp::Inc, 4), rmw(1, AtomOp::Dec, 4)}, kUnordered));
}

TEST_CASE("one commuting family combines in any order; exch of one value is one function; mixes do not", "[checker][kernel][final]") {
  using checker::kernel::combineUpdates;
  using frontend::AtomOp;
  CHECK(combineUpdates(0, {rmw(0, AtomOp::Or, 1), rmw(1, AtomOp::Or, 4), rmw(2, AtomOp::Or, 1)}, kUnordered) == 5);
  CHECK(combineUpdates(7, {rmw(0, AtomOp::Xor, 1), rmw(1, AtomOp::Xor, 4), rmw(2, AtomOp::Xor, 1)}, kUnordered) == 3);
  CHECK(combineUpdates(15, {rmw(0, AtomOp::And, 6), rmw(1, AtomOp::And, 12)}, kUnordered) == 4);
  CHECK(combineUpdates(0, {rmw(0, AtomOp::Max, -3), rmw(1, AtomOp::Max, 9), rmw(2, AtomOp::Max, 2)}, kUnordered) == 9);
  CHECK(combineUpdates(5, {rmw(0, AtomOp::Min, -3), rmw(1, AtomOp::Min, 9)}, kUnordered) == -3);
  CHECK(combineUpdates(0, {rmw(0, AtomOp::Add, 2), rmw(1, AtomOp::Add, -5)}, kUnordered) == -3);
  CHECK(combineUpdates(0, repeat(3, AtomOp::Exch, 1), kUnordered) == 1);
  CHECK_FALSE(combineUpdates(0, {rmw(0, AtomOp::Exch, 1), rmw(1, AtomOp::Exch, 2)}, kUnordered));  // the last wins
  CHECK_FALSE(combineUpdates(0, {rmw(0, AtomOp::Or, 1), rmw(1, AtomOp::Xor, 1)}, kUnordered));
  CHECK_FALSE(combineUpdates(0, {rmw(0, AtomOp::Min, 1), rmw(1, AtomOp::Max, 3)}, kUnordered));
  CHECK_FALSE(combineUpdates(0, {rmw(0, AtomOp::Add, 1), rmw(1, AtomOp::Or, 1)}, kUnordered));
}

TEST_CASE("or and and of one word bit by bit: a bit whose every setter has a clearer after it ends 0", "[checker][kernel][final]") {
  using checker::kernel::combineUpdates;
  using frontend::AtomOp;
  // Writes 0, 2: or 1 (bit 0), or 3 (bits 0, 1); writes 1, 3: and ~1 after each (write 1 after 0, 3 after 2).
  const std::vector<checker::kernel::RmwUpdate> u{rmw(0, AtomOp::Or, 1), rmw(1, AtomOp::And, ~1), rmw(2, AtomOp::Or, 3),
                                                  rmw(3, AtomOp::And, ~1)};
  const auto po = [](int a, int b) { return (a == 0 && b == 1) || (a == 2 && b == 3); };
  CHECK(combineUpdates(8, u, po) == 10);  // bit 0 cleared, bit 1 set, bit 3 kept
  // Without the order, write 0's or may come after write 3's and: bit 0 is not decided.
  CHECK_FALSE(combineUpdates(8, u, [](int a, int b) { return a == 2 && b == 3; }));
  // Every clearer followed by a setter: 1.
  const auto andFirst = [](int a, int b) { return a == 0 && b == 1; };
  CHECK(combineUpdates(0, {rmw(0, AtomOp::And, ~1), rmw(1, AtomOp::Or, 1)}, andFirst) == 1);
}

// More threads than a slice takes (32), so only the static rule can decide the claims.
constexpr int kThreads = 40;

TEST_CASE("40 threads' atom.inc with one bound end in one value without an engine", "[checker][kernel][final]") {
  // 40 increments modulo 8 from 0: 0; bound 7 from 7, 40 times: the first wraps, then 39 mod 8 = 7.
  const auto inc = [](int) { return std::vector<std::string>{"atom.relaxed.gpu.inc r0, x_0, 7"}; };
  for (const auto& [init, final] : std::vector<std::pair<int, int>>{{0, 0}, {7, 7}, {9, 7}}) {
    const KernelResult r = checkX(kThreads, init, inc, "x[0] == " + std::to_string(final));
    testing::checkDecidedWithoutEngine(r);
    REQUIRE(r.observed.size() == 1);
    CHECK(r.observed[0].values == std::vector<std::string>{std::to_string(final)});
  }
}

TEST_CASE("a bitmap: each thread sets its bit with atom.or then clears bit 0 with atom.and", "[checker][kernel][final]") {
  // Thread t sets bit t % 8; its own and (after it in program order) clears bit 0: 0xfe whatever the order.
  const KernelResult r = checkX(kThreads, 0, [](int t) {
    const std::string bit = std::to_string(1 << (t % 8));
    return std::vector<std::string>{"atom.relaxed.gpu.or r0, x_0, " + bit, "atom.relaxed.gpu.and r1, x_0, -2"};
  }, "x[0] == 254");
  testing::checkDecidedWithoutEngine(r);
}

TEST_CASE("final values that depend on the order of the updates are not decided", "[checker][kernel][final]") {
  const auto undecided = [](const KernelResult& r) {
    REQUIRE(r.assertions.size() == 1);
    CHECK(r.assertions[0].holds != true);
    REQUIRE(r.observed.size() == 1);
    CHECK((!r.observed[0].complete || r.observed[0].values.size() > 1));
  };
  SECTION("inc with two bounds") {
    const auto inc = [](int t) { return std::vector<std::string>{"atom.relaxed.gpu.inc r0, x_0, " + std::to_string(t % 2 ? 3 : 5)}; };
    undecided(checkX(kThreads, 0, inc, "x[0] == 4"));
  }
  SECTION("or and xor") {
    const auto mix = [](int t) { return std::vector<std::string>{std::string("atom.relaxed.gpu.") + (t % 2 ? "or" : "xor") + " r0, x_0, 1"}; };
    undecided(checkX(kThreads, 0, mix, "x[0] == 1"));
  }
  SECTION("or then and of another thread's bit") {
    undecided(checkX(kThreads, 0, [](int t) {
      const std::string mask = t == 0 ? "-2" : "-1";
      return std::vector<std::string>{"atom.relaxed.gpu.or r0, x_0, 1", "atom.relaxed.gpu.and r1, x_0, " + mask};
    }, "x[0] == 0"));
  }
  SECTION("a plain write beside the atomics") {
    const KernelResult r = checkX(kThreads, 0, [](int t) {
      return std::vector<std::string>{t == 0 ? "st.weak x_0, 100" : "atom.relaxed.gpu.add r0, x_0, 1"};
    }, "x[0] == 139");
    CHECK_FALSE(r.races.empty());
    undecided(r);
  }
}

TEST_CASE("a read before the last update does not see the combined value", "[checker][kernel][final]") {
  // Thread 0 reads x_0 after its own or, unordered with the others': out_0 is not forced.
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {kThreads, 1, 1};
  l.init = {"x_0 = 0", "out_0 = 0"};
  l.code = [](const frontend::KernelThread& k) {
    std::vector<std::string> c{"atom.relaxed.gpu.or r0, x_0, " + std::to_string(1 << (k.tid.x % 8))};
    if (k.tid.x == 0) c.insert(c.end(), {"ld.relaxed.gpu r1, x_0", "st.weak out_0, r1"});
    return c;
  };
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 255"};
  const KernelResult r = testing::checkLaunch(l, o);
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds != true);
  // After a barrier every update is before the read: forced.
  l.code = [](const frontend::KernelThread& k) {
    std::vector<std::string> c{"atom.relaxed.gpu.or r0, x_0, " + std::to_string(1 << (k.tid.x % 8)), "bar.sync 0"};
    if (k.tid.x == 0) c.insert(c.end(), {"ld.relaxed.gpu r1, x_0", "st.weak out_0, r1"});
    return c;
  };
  testing::checkDecidedWithoutEngine(testing::checkLaunch(l, o));
}

namespace {

std::int64_t pattern(float f) {
  std::int32_t p;
  std::memcpy(&p, &f, sizeof p);
  return p;
}

std::vector<checker::kernel::RmwUpdate> floatAdds(const std::vector<float>& addends) {
  std::vector<checker::kernel::RmwUpdate> out;
  for (float a : addends) {
    checker::kernel::RmwUpdate u;
    u.write = static_cast<int>(out.size());
    u.bits = 32;
    u.isFloat = true;
    u.shape = "float add " + std::to_string(a);
    u.apply = [a = pattern(a)](std::int64_t x) { return checker::kernel::floatAdd(x, a, 32); };
    out.push_back(u);
  }
  return out;
}

// Every thread of one CTA adds param_0[tid] to param_1[0] with atom.global.add.f32.
const char* const kFloatSum = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry acc(.param .u64 w, .param .u64 total)
{
  .reg .f32 %f<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [w];
  ld.param.u64 %rd2, [total];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.f32 %f1, [%rd6];
  atom.global.add.f32 %f2, [%rd4], %f1;
  ret;
}
)";

checker::kernel::KernelResult observeFloatSum(const std::string& addends) {
  frontend::LaunchConfig launch;
  launch.grid = frontend::parseDim3("1", "--grid");
  launch.block = frontend::parseDim3(std::to_string(kThreads), "--block");
  launch.args.push_back(frontend::parseArgSpec("param_0=float32[" + std::to_string(kThreads) + "]=" + addends));
  launch.args.push_back(frontend::parseArgSpec("param_1=float32[1]"));
  const frontend::KernelProgram k = frontend::instantiateKernel(kFloatSum, "k.ptx", "k.ptx", launch);
  checker::kernel::KernelOptions o;
  o.observes = {"param_1[0]"};
  return checker::kernel::checkKernel(testing::ptxModel(), k, o);
}

}  // namespace

TEST_CASE("float adds whose every partial sum is exact end in the exact sum; others are not decided", "[checker][kernel][final]") {
  using checker::kernel::combineUpdates;
  CHECK(combineUpdates(0, floatAdds({0.25f, 0.5f, 0.75f, 1.5f, 0.0f}), kUnordered) == pattern(3.0f));
  CHECK(combineUpdates(pattern(-1.0f), floatAdds({0.5f, 0.5f}), kUnordered) == pattern(0.0f));  // +0, not -0
  CHECK(combineUpdates(0, floatAdds({8388608.0f, 8388608.0f}), kUnordered) == pattern(16777216.0f));  // 2^24: exact
  // 2^24 + 1 rounds: the order decides the sum.
  CHECK_FALSE(combineUpdates(0, floatAdds({16777216.0f, 1.0f, 2.0f}), kUnordered));
  CHECK_FALSE(combineUpdates(0, floatAdds({1e30f, 1e-30f}), kUnordered));
  CHECK_FALSE(combineUpdates(0, floatAdds({3e38f, 2e38f}), kUnordered));               // overflows
  CHECK_FALSE(combineUpdates(pattern(-0.0f), floatAdds({0.0f, -0.0f}), kUnordered));  // a -0 base
  CHECK_FALSE(combineUpdates(0, floatAdds({std::numeric_limits<float>::infinity(), 1.0f}), kUnordered));
  // One addend many times is one function: any order, rounding or not.
  CHECK(combineUpdates(0, floatAdds({0.1f, 0.1f, 0.1f}), kUnordered).has_value());
}

TEST_CASE("--observe of a float atomicAdd sum of 40 threads prints the exact sum", "[checker][kernel][final]") {
  const auto exact = observeFloatSum("0.25,0.5,0.75,1.5");
  CHECK(exact.races.empty());
  REQUIRE(exact.observed.size() == 1);
  CHECK(exact.observed[0].complete);
  CHECK(exact.observed[0].values == std::vector<std::string>{"3.000000"});
  const auto rounding = observeFloatSum("16777216,1,2");
  REQUIRE(rounding.observed.size() == 1);
  CHECK_FALSE(rounding.observed[0].complete);
}
