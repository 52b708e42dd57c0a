// The float instruction semantics (FloatOps.hpp), computed with the host's IEEE arithmetic in round-to-nearest.
// A NaN result gives nullopt: PTX fixes NaN payloads per instruction and ptxmm does not model them.
#include "frontend/ptx/FloatOps.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "frontend/ptx/IntegerOps.hpp"

namespace ptxmm::frontend::ptx {
namespace {

double toDouble(std::uint64_t bits, int width) {
  if (width == 64) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  const auto b32 = static_cast<std::uint32_t>(bits);
  float f;
  std::memcpy(&f, &b32, sizeof f);
  return f;
}

std::uint64_t fromDouble(double v, int width) {
  if (width == 64) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
  }
  const auto f = static_cast<float>(v);
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof f);
  return bits;
}

// .ftz flushes f32 subnormals to zero of the same sign (f64 has no .ftz).
double flush(double v, int width, bool ftz) {
  if (ftz && width == 32 && std::fpclassify(static_cast<float>(v)) == FP_SUBNORMAL) return std::copysign(0.0, v);
  return v;
}

double roundWith(double v, Rounding r) {
  switch (r) {
    case Rounding::Nearest: return std::nearbyint(v);
    case Rounding::Zero: return std::trunc(v);
    case Rounding::Down: return std::floor(v);
    case Rounding::Up: return std::ceil(v);
  }
  return v;
}

// The result of an f32 operation computed in single precision, of an f64 one in double.
template <class T>
T compute(FloatOp op, T x, T y, T z) {
  switch (op) {
    case FloatOp::Add: return x + y;
    case FloatOp::Sub: return x - y;
    case FloatOp::Mul: return x * y;
    case FloatOp::Div: return x / y;
    case FloatOp::Fma: return std::fma(x, y, z);
    case FloatOp::Abs: return std::fabs(x);
    case FloatOp::Neg: return -x;
    case FloatOp::Sqrt: return std::sqrt(x);
    case FloatOp::Rcp: return T{1} / x;
    case FloatOp::Min:
    case FloatOp::Max: {
      if (std::isnan(x)) return y;  // the other operand when one is NaN
      if (std::isnan(y)) return x;
      if (x == y) return (op == FloatOp::Min) == std::signbit(x) ? x : y;  // -0 < +0
      return op == FloatOp::Min ? std::fmin(x, y) : std::fmax(x, y);
    }
  }
  return x;
}

}  // namespace

bool floatTest(FloatTest t, std::uint64_t bits, int width) {
  const double v = toDouble(bits, width);
  const int c = width == 64 ? std::fpclassify(v) : std::fpclassify(static_cast<float>(v));
  switch (t) {
    case FloatTest::Finite: return std::isfinite(v);
    case FloatTest::Infinite: return std::isinf(v);
    case FloatTest::Number: return !std::isnan(v);
    case FloatTest::NotANumber: return std::isnan(v);
    case FloatTest::Normal: return c == FP_NORMAL;
    case FloatTest::Subnormal: return c == FP_SUBNORMAL;
  }
  return false;
}

std::uint64_t narrowToF32(std::uint64_t f64Bits) { return fromDouble(toDouble(f64Bits, 64), 32); }

std::optional<std::uint64_t> floatArith(FloatOp op, std::uint64_t a, std::uint64_t b, std::uint64_t c, int width,
                                        const FloatMode& mode) {
  if (!mode.nearest || (width != 32 && width != 64)) return std::nullopt;
  const double x = flush(toDouble(a, width), width, mode.ftz);
  const double y = flush(toDouble(b, width), width, mode.ftz);
  const double z = flush(toDouble(c, width), width, mode.ftz);
  double r = width == 32 ? compute<float>(op, static_cast<float>(x), static_cast<float>(y), static_cast<float>(z))
                         : compute<double>(op, x, y, z);
  r = flush(r, width, mode.ftz);
  if (mode.sat) r = std::isnan(r) ? 0.0 : r < 0 ? 0.0 : r > 1 ? 1.0 : r;
  if (std::isnan(r)) return std::nullopt;
  return fromDouble(r, width);
}

bool floatCompare(FloatCmp cmp, std::uint64_t a, std::uint64_t b, int width, bool ftz) {
  const double x = flush(toDouble(a, width), width, ftz), y = flush(toDouble(b, width), width, ftz);
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (cmp) {
    case FloatCmp::Eq: return !unordered && x == y;
    case FloatCmp::Ne: return !unordered && x != y;
    case FloatCmp::Lt: return !unordered && x < y;
    case FloatCmp::Le: return !unordered && x <= y;
    case FloatCmp::Gt: return !unordered && x > y;
    case FloatCmp::Ge: return !unordered && x >= y;
    case FloatCmp::Equ: return unordered || x == y;
    case FloatCmp::Neu: return unordered || x != y;
    case FloatCmp::Ltu: return unordered || x < y;
    case FloatCmp::Leu: return unordered || x <= y;
    case FloatCmp::Gtu: return unordered || x > y;
    case FloatCmp::Geu: return unordered || x >= y;
    case FloatCmp::Num: return !unordered;
    case FloatCmp::Nan: return unordered;
  }
  return false;
}

std::uint64_t floatToInt(std::uint64_t a, int fromWidth, int toWidth, bool toSigned, Rounding r, bool ftz) {
  const double v = flush(toDouble(a, fromWidth), fromWidth, ftz);
  if (std::isnan(v)) return 0;
  const double rounded = roundWith(v, r);
  const long double hi = toSigned ? std::ldexp(1.0L, toWidth - 1) - 1 : std::ldexp(1.0L, toWidth) - 1;
  const long double lo = toSigned ? -std::ldexp(1.0L, toWidth - 1) : 0;
  if (rounded >= hi) return toSigned ? widthMask(toWidth - 1) : widthMask(toWidth);
  if (rounded <= lo) return toSigned ? (std::uint64_t{1} << (toWidth - 1)) : 0;
  const std::uint64_t bits = toSigned ? static_cast<std::uint64_t>(static_cast<std::int64_t>(rounded))
                                      : static_cast<std::uint64_t>(rounded);
  return bits & widthMask(toWidth);
}

std::optional<std::uint64_t> intToFloat(std::uint64_t a, int fromWidth, bool fromSigned, int toWidth, Rounding r) {
  if (r != Rounding::Nearest || (toWidth != 32 && toWidth != 64)) return std::nullopt;
  const std::int64_t s = extend(a, fromWidth, fromSigned);
  if (fromSigned) return toWidth == 32 ? fromDouble(static_cast<float>(s), 32) : fromDouble(static_cast<double>(s), 64);
  const std::uint64_t u = a & widthMask(fromWidth);
  return toWidth == 32 ? fromDouble(static_cast<float>(u), 32) : fromDouble(static_cast<double>(u), 64);
}

std::optional<std::uint64_t> floatToFloat(std::uint64_t a, int fromWidth, int toWidth, std::optional<Rounding> integral,
                                          Rounding r, const FloatMode& mode) {
  if ((fromWidth != 32 && fromWidth != 64) || (toWidth != 32 && toWidth != 64)) return std::nullopt;
  double v = flush(toDouble(a, fromWidth), fromWidth, mode.ftz);
  if (std::isnan(v)) return std::nullopt;
  if (integral) v = roundWith(v, *integral);
  if (toWidth < fromWidth && r != Rounding::Nearest) return std::nullopt;
  v = flush(toWidth == 32 ? static_cast<double>(static_cast<float>(v)) : v, toWidth, mode.ftz);
  if (mode.sat) v = v < 0 ? 0.0 : v > 1 ? 1.0 : v;
  return fromDouble(v, toWidth);
}

}  // namespace ptxmm::frontend::ptx
