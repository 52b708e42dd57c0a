// Register operations at their edges, in both engines: every operand is loaded from memory, so nothing is folded
// before the engines see it, and the expected values are written from the PTX ISA (shl/shr clamp the unsigned
// amount to the register width, arithmetic wraps, signed division truncates, division by zero is unspecified).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "checker/Differential.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;

namespace {

// `op r3, r1, r2` with r1 = a and r2 = b read from memory (a = INT64_MIN is built as 1 << 63 from a read 1).
std::string program(const std::string& op, std::int64_t a, std::int64_t b, const std::string& observe = "P0:r3") {
  const bool intMin = a == INT64_MIN;
  return "PTX ARITH\n{ a=" + std::to_string(intMin ? 1 : a) + "; b=" + std::to_string(b) +
         "; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, a ;\n ld.weak r2, b ;\n" +
         (intMin ? " shl r1, r1, 63 ;\n" : "") + " " + op + " r3, r1, r2 ;\nexists (" + observe + " == 0)\n";
}

// Both engines (Z3 with its cross-check) agree on the single state; it is returned.
checker::EngineComparison both(const std::string& text) {
  checker::RunOptions options;
  options.engineOptions.crossCheck = true;
  return checker::compareEngines(ptxModel(), frontend::parseLitmus(text, "arith.litmus"), options);
}

std::int64_t result(const std::string& op, std::int64_t a, std::int64_t b) {
  const auto c = both(program(op, a, b));
  INFO(op << " " << a << ", " << b << ": " << c.difference << " " << c.reference.reason);
  REQUIRE(c.difference.empty());
  REQUIRE(c.reference.status == Status::Ok);
  REQUIRE(c.reference.states.size() == 1);
  return c.reference.states.front().values.front();
}

}  // namespace

TEST_CASE("shifts clamp the unsigned amount to the register width", "[checker][arith]") {
  CHECK(result("shl", 1, 63) == INT64_MIN);
  CHECK(result("shl", 1, 64) == 0);
  CHECK(result("shl", 1, 1000) == 0);
  CHECK(result("shl", 1, -1) == 0);  // the amount is unsigned: -1 is 2^64 - 1
  CHECK(result("shl", 3, 0) == 3);
  CHECK(result("shr", -8, 1) == -4);
  CHECK(result("shr", -8, 64) == -1);  // a signed shift fills with the sign
  CHECK(result("shr", 8, 64) == 0);
  CHECK(result("shr", INT64_MIN, 63) == -1);
  CHECK(result("shr", 1, -1) == 0);
}

TEST_CASE("arithmetic wraps around in two's complement", "[checker][arith]") {
  CHECK(result("add", INT64_MIN, -1) == INT64_MAX);
  CHECK(result("sub", INT64_MIN, 1) == INT64_MAX);
  CHECK(result("mul", INT64_MIN, -1) == INT64_MIN);
  CHECK(result("mul", 3037000500, 3037000500) == -9223372036709301616);
  CHECK(result("div", INT64_MIN, -1) == INT64_MIN);
  CHECK(result("rem", INT64_MIN, -1) == 0);
  CHECK(result("div", -7, 2) == -3);  // truncation toward zero
  CHECK(result("rem", -7, 2) == -1);
  CHECK(result("rem", 7, -2) == 1);
  CHECK(result("min", -1, 1) == -1);  // signed comparisons
  CHECK(result("max", INT64_MIN, 0) == 0);
}

TEST_CASE("an execution needing a division by zero is UNKNOWN in both engines", "[checker][arith]") {
  for (const char* op : {"div", "rem"}) {
    const auto c = both(program(op, 5, 0));
    INFO(op << ": " << c.difference);
    CHECK(c.difference.empty());
    CHECK(c.reference.status == Status::Unknown);
    CHECK(c.solver.status == Status::Unknown);
    CHECK(c.reference.reason == checker::unspecifiedReason());
  }
  // Only executions that need the value: a division whose result nothing uses is harmless.
  const auto dead = both(program("div", 5, 0, "P0:r1"));
  CHECK(dead.difference.empty());
  CHECK(dead.reference.status == Status::Ok);
  // Nor is a division on a path no execution takes: b is 0, so the branch always skips it.
  const auto skipped = both(
      "PTX ARITH\n{ a=5; b=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, a ;\n ld.weak r2, b ;\n mov r3, 7 ;\n"
      " beq r2, 0, LZ ;\n div r3, r1, r2 ;\n LZ: ;\nexists (P0:r3 == 7)\n");
  CHECK(skipped.difference.empty());
  CHECK(skipped.reference.status == Status::Ok);
  CHECK(skipped.reference.holds);
}
