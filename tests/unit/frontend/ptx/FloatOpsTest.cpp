// Unit tests of the float semantics ptxmm evaluates: IEEE results in round-to-nearest, .ftz and .sat, NaN
// handling of min/max and setp, float <-> int conversion with saturation, and nullopt where the result is not
// evaluated (other rounding modes, NaN results).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "frontend/ptx/FloatOps.hpp"

using namespace ptxmm::frontend::ptx;

namespace {

std::uint64_t f(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
std::uint64_t d(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
const FloatMode kNearest{};

}  // namespace

TEST_CASE("f32 and f64 arithmetic in round-to-nearest", "[frontend][ptx]") {
  CHECK(floatArith(FloatOp::Add, f(1.5f), f(2.25f), 0, 32, kNearest) == f(3.75f));
  CHECK(floatArith(FloatOp::Mul, f(3), f(-2), 0, 32, kNearest) == f(-6));
  CHECK(floatArith(FloatOp::Div, d(1), d(3), 0, 64, kNearest) == d(1.0 / 3.0));
  CHECK(floatArith(FloatOp::Fma, f(2), f(3), f(1), 32, kNearest) == f(7));
  CHECK(floatArith(FloatOp::Sqrt, f(2), 0, 0, 32, kNearest) == f(std::sqrt(2.0f)));
  CHECK(floatArith(FloatOp::Abs, f(-0.5f), 0, 0, 32, kNearest) == f(0.5f));
  CHECK(floatArith(FloatOp::Neg, d(0), 0, 0, 64, kNearest) == d(-0.0));
  // Single precision rounds at every step: 2^24 + 1 is not representable.
  CHECK(floatArith(FloatOp::Add, f(16777216.0f), f(1.0f), 0, 32, kNearest) == f(16777216.0f));
}

TEST_CASE("min and max: the non-NaN operand, -0 below +0", "[frontend][ptx]") {
  const std::uint64_t nan = f(std::numeric_limits<float>::quiet_NaN());
  CHECK(floatArith(FloatOp::Min, nan, f(2), 0, 32, kNearest) == f(2));
  CHECK(floatArith(FloatOp::Max, f(2), nan, 0, 32, kNearest) == f(2));
  CHECK(floatArith(FloatOp::Min, f(-0.0f), f(0.0f), 0, 32, kNearest) == f(-0.0f));
  CHECK(floatArith(FloatOp::Max, f(-0.0f), f(0.0f), 0, 32, kNearest) == f(0.0f));
  CHECK_FALSE(floatArith(FloatOp::Min, nan, nan, 0, 32, kNearest));  // a NaN result is not evaluated
}

TEST_CASE("ftz, sat and unevaluated rounding modes", "[frontend][ptx]") {
  const std::uint64_t tiny = f(std::numeric_limits<float>::denorm_min());
  CHECK(floatArith(FloatOp::Add, tiny, f(0), 0, 32, kNearest) == tiny);
  CHECK(floatArith(FloatOp::Add, tiny, f(0), 0, 32, {true, true, false}) == f(0));
  CHECK(floatArith(FloatOp::Add, f(0.75f), f(0.75f), 0, 32, {true, false, true}) == f(1));
  CHECK(floatArith(FloatOp::Sub, f(0), f(0.5f), 0, 32, {true, false, true}) == f(0));
  CHECK_FALSE(floatArith(FloatOp::Add, f(1), f(1), 0, 32, {false, false, false}));
  CHECK_FALSE(floatArith(FloatOp::Add, f(1), f(1), 0, 16, kNearest));
}

TEST_CASE("setp comparisons, ordered and unordered", "[frontend][ptx]") {
  const std::uint64_t nan = f(std::numeric_limits<float>::quiet_NaN());
  CHECK(floatCompare(FloatCmp::Lt, f(1), f(2), 32, false));
  CHECK_FALSE(floatCompare(FloatCmp::Lt, nan, f(2), 32, false));
  CHECK(floatCompare(FloatCmp::Ltu, nan, f(2), 32, false));
  CHECK_FALSE(floatCompare(FloatCmp::Ne, nan, f(2), 32, false));
  CHECK(floatCompare(FloatCmp::Neu, nan, f(2), 32, false));
  CHECK(floatCompare(FloatCmp::Nan, f(1), nan, 32, false));
  CHECK(floatCompare(FloatCmp::Num, f(1), f(2), 32, false));
  CHECK(floatCompare(FloatCmp::Eq, f(0.0f), f(-0.0f), 32, false));
}

TEST_CASE("cvt between floats and integers", "[frontend][ptx]") {
  CHECK(floatToInt(f(2.5f), 32, 32, true, Rounding::Nearest, false) == 2);
  CHECK(floatToInt(f(3.5f), 32, 32, true, Rounding::Nearest, false) == 4);
  CHECK(floatToInt(f(-2.5f), 32, 32, true, Rounding::Zero, false) == 0xfffffffeu);
  CHECK(floatToInt(f(-2.5f), 32, 32, true, Rounding::Down, false) == 0xfffffffdu);
  CHECK(floatToInt(f(2.1f), 32, 32, true, Rounding::Up, false) == 3);
  CHECK(floatToInt(f(1e20f), 32, 32, true, Rounding::Zero, false) == 0x7fffffffu);   // clamped
  CHECK(floatToInt(f(-1e20f), 32, 32, true, Rounding::Zero, false) == 0x80000000u);
  CHECK(floatToInt(f(-1.0f), 32, 32, false, Rounding::Zero, false) == 0);
  CHECK(floatToInt(f(std::numeric_limits<float>::quiet_NaN()), 32, 32, true, Rounding::Zero, false) == 0);
  CHECK(intToFloat(0xffffffffu, 32, true, 32, Rounding::Nearest) == f(-1.0f));
  CHECK(intToFloat(0xffffffffu, 32, false, 64, Rounding::Nearest) == d(4294967295.0));
  CHECK_FALSE(intToFloat(7, 32, true, 32, Rounding::Zero));
  CHECK(floatToFloat(f(1.5f), 32, 64, std::nullopt, Rounding::Nearest, kNearest) == d(1.5));
  CHECK(floatToFloat(d(1.0 / 3.0), 64, 32, std::nullopt, Rounding::Nearest, kNearest) == f(1.0f / 3.0f));
  CHECK(floatToFloat(f(2.7f), 32, 32, Rounding::Zero, Rounding::Nearest, kNearest) == f(2.0f));  // cvt.rzi.f32.f32
}

TEST_CASE("testp properties and decimal literals read as f32", "[frontend][ptx]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float sub = std::numeric_limits<float>::denorm_min();
  CHECK(floatTest(FloatTest::Finite, f(1.5f), 32));
  CHECK_FALSE(floatTest(FloatTest::Finite, f(inf), 32));
  CHECK(floatTest(FloatTest::Infinite, f(-inf), 32));
  CHECK(floatTest(FloatTest::Number, f(inf), 32));
  CHECK(floatTest(FloatTest::NotANumber, f(nan), 32));
  CHECK_FALSE(floatTest(FloatTest::Number, d(std::nan("")), 64));
  CHECK(floatTest(FloatTest::Normal, f(1.0f), 32));
  CHECK_FALSE(floatTest(FloatTest::Normal, f(0.0f), 32));
  CHECK(floatTest(FloatTest::Subnormal, f(sub), 32));
  CHECK_FALSE(floatTest(FloatTest::Subnormal, d(static_cast<double>(sub)), 64));  // a normal double
  CHECK(narrowToF32(d(0.1)) == f(0.1f));
  CHECK(narrowToF32(d(1e300)) == f(inf));
}
