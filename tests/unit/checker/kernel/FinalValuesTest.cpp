// Final values of memory that many threads update with atomics (FinalValues): which updates end in one value
// whatever their order, and which must not be decided (a plain write beside them, a read before the last one, a
// mix that does not commute, a compare-and-swap that may not write).
#include <catch2/catch.hpp>

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
