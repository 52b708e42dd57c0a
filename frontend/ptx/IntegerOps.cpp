// The integer and bit instruction semantics (IntegerOps.hpp). 128-bit arithmetic covers the 64-bit products.
#include "frontend/ptx/IntegerOps.hpp"

#include <bit>

namespace ptxmm::frontend::ptx {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

std::uint64_t wrap(std::uint64_t v, int width) { return v & widthMask(width); }

// The value of `width` bits, exactly (unsigned 64-bit values above 2^63 included).
i128 value(std::uint64_t a, int width, bool isSigned) {
  return isSigned ? i128{signExtend(a, width)} : static_cast<i128>(a & widthMask(width));
}
i128 asUnsigned(std::uint64_t a, int width) { return static_cast<i128>(a & widthMask(width)); }

}  // namespace

std::uint64_t intMul(std::uint64_t a, std::uint64_t b, int width, bool isSigned, bool hi, bool wide) {
  const i128 p = isSigned ? value(a, width, true) * value(b, width, true) : asUnsigned(a, width) * asUnsigned(b, width);
  const auto bits = static_cast<u128>(p);
  if (wide) return static_cast<std::uint64_t>(bits & ((u128{1} << (2 * width)) - 1));
  if (hi) return wrap(static_cast<std::uint64_t>(bits >> width), width);
  return wrap(static_cast<std::uint64_t>(bits), width);
}

std::optional<std::uint64_t> intDiv(std::uint64_t a, std::uint64_t b, int width, bool isSigned) {
  const i128 x = value(a, width, isSigned), y = value(b, width, isSigned);
  if (y == 0) return std::nullopt;
  const i128 q = x / y;
  if (isSigned && q != signExtend(static_cast<std::uint64_t>(q), width)) return std::nullopt;  // min / -1
  return wrap(static_cast<std::uint64_t>(q), width);
}

std::optional<std::uint64_t> intRem(std::uint64_t a, std::uint64_t b, int width, bool isSigned) {
  const i128 x = value(a, width, isSigned), y = value(b, width, isSigned);
  if (y == 0) return std::nullopt;
  if (isSigned && x / y != signExtend(static_cast<std::uint64_t>(x / y), width)) return std::nullopt;
  return wrap(static_cast<std::uint64_t>(x % y), width);
}

std::uint64_t intShl(std::uint64_t a, std::uint64_t amount, int width) {
  return amount >= static_cast<std::uint64_t>(width) ? 0 : wrap(a << amount, width);
}

std::uint64_t intShr(std::uint64_t a, std::uint64_t amount, int width, bool isSigned) {
  const std::uint64_t n = amount >= static_cast<std::uint64_t>(width) ? static_cast<std::uint64_t>(width) : amount;
  if (isSigned) return wrap(static_cast<std::uint64_t>(signExtend(a, width) >> (n >= 64 ? 63 : n)), width);
  return n >= 64 ? 0 : wrap(a, width) >> n;
}

std::uint64_t intMin(std::uint64_t a, std::uint64_t b, int width, bool isSigned) {
  return value(a, width, isSigned) <= value(b, width, isSigned) ? wrap(a, width) : wrap(b, width);
}

std::uint64_t intMax(std::uint64_t a, std::uint64_t b, int width, bool isSigned) {
  return value(a, width, isSigned) >= value(b, width, isSigned) ? wrap(a, width) : wrap(b, width);
}

std::uint64_t intAbs(std::uint64_t a, int width) {
  const i128 v = value(a, width, true);
  return wrap(static_cast<std::uint64_t>(v < 0 ? -v : v), width);
}

bool intCompare(IntCmp cmp, std::uint64_t a, std::uint64_t b, int width, bool isSigned) {
  const i128 x = value(a, width, isSigned), y = value(b, width, isSigned);
  switch (cmp) {
    case IntCmp::Eq: return x == y;
    case IntCmp::Ne: return x != y;
    case IntCmp::Lt: return x < y;
    case IntCmp::Le: return x <= y;
    case IntCmp::Gt: return x > y;
    case IntCmp::Ge: return x >= y;
  }
  return false;
}

std::uint64_t intAddSat(std::uint64_t a, std::uint64_t b, int width, bool subtract) {
  const i128 x = value(a, width, true), y = value(b, width, true);
  i128 r = subtract ? x - y : x + y;
  const i128 hi = (i128{1} << (width - 1)) - 1, lo = -(i128{1} << (width - 1));
  r = r > hi ? hi : r < lo ? lo : r;
  return wrap(static_cast<std::uint64_t>(r), width);
}

std::uint64_t bitExtract(std::uint64_t a, std::uint64_t pos, std::uint64_t len, int width, bool isSigned) {
  const std::uint64_t msb = static_cast<std::uint64_t>(width) - 1;
  pos &= 0xff;
  len &= 0xff;
  std::uint64_t sbit = 0;
  if (isSigned && len != 0) {
    const std::uint64_t at = pos + len - 1 < msb ? pos + len - 1 : msb;
    sbit = (a >> at) & 1;
  }
  std::uint64_t d = 0;
  for (std::uint64_t i = 0; i <= msb; ++i) {
    const std::uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

std::uint64_t bitInsert(std::uint64_t a, std::uint64_t b, std::uint64_t pos, std::uint64_t len, int width) {
  const std::uint64_t msb = static_cast<std::uint64_t>(width) - 1;
  pos &= 0xff;
  len &= 0xff;
  std::uint64_t f = wrap(b, width);
  for (std::uint64_t i = 0; i < len && pos + i <= msb; ++i) {
    f &= ~(std::uint64_t{1} << (pos + i));
    f |= ((a >> i) & 1) << (pos + i);
  }
  return f;
}

std::uint64_t bytePermute(std::uint64_t a, std::uint64_t b, std::uint64_t c, int mode) {
  const std::uint64_t source = ((b & 0xffffffff) << 32) | (a & 0xffffffff);
  auto byte = [&](std::uint64_t i) { return (source >> (8 * (i & 7))) & 0xff; };
  std::uint64_t d = 0;
  const std::uint64_t sel = c & 3;
  for (std::uint64_t i = 0; i < 4; ++i) {
    std::uint64_t v = 0;
    switch (mode) {
      case 0: {  // generic: four 4-bit selectors, the top bit replicating the byte's sign
        const std::uint64_t s = (c >> (4 * i)) & 0xf;
        v = byte(s & 7);
        if (s & 8) v = (v & 0x80) ? 0xff : 0;
        break;
      }
      case 1: v = byte(sel + i); break;          // f4e: forward 4 extract
      case 2: v = byte(sel - i + 8); break;      // b4e: backward 4 extract
      case 3: v = byte(sel); break;              // rc8: replicate 8
      case 4: v = byte(i > sel ? i : sel); break;  // ecl: edge clamp left
      case 5: v = byte(i < sel ? i : sel); break;  // ecr: edge clamp right
      default: v = byte(((sel & 1) << 1) | (i & 1)); break;  // rc16: replicate 16
    }
    d |= v << (8 * i);
  }
  return d;
}

std::uint64_t popCount(std::uint64_t a, int width) { return static_cast<std::uint64_t>(std::popcount(wrap(a, width))); }

std::uint64_t leadingZeros(std::uint64_t a, int width) {
  return static_cast<std::uint64_t>(std::countl_zero(wrap(a, width)) - (64 - width));
}

std::uint64_t bitReverse(std::uint64_t a, int width) {
  std::uint64_t r = 0;
  for (int i = 0; i < width; ++i) r |= ((a >> i) & 1) << (width - 1 - i);
  return r;
}

std::uint64_t bitFind(std::uint64_t a, int width, bool isSigned, bool shiftAmount) {
  std::uint64_t v = wrap(a, width);
  if (isSigned && (v >> (width - 1)) & 1) v = wrap(~v, width);
  if (v == 0) return 0xffffffff;
  const std::uint64_t position = 63 - static_cast<std::uint64_t>(std::countl_zero(v));
  return shiftAmount ? static_cast<std::uint64_t>(width - 1) - position : position;
}

std::uint64_t intConvert(std::uint64_t a, int fromWidth, bool fromSigned, int toWidth, bool toSigned, bool saturate) {
  i128 v = value(a, fromWidth, fromSigned);
  if (saturate) {
    const i128 hi = toSigned ? (i128{1} << (toWidth - 1)) - 1 : (i128{1} << toWidth) - 1;
    const i128 lo = toSigned ? -(i128{1} << (toWidth - 1)) : 0;
    v = v > hi ? hi : v < lo ? lo : v;
  }
  return wrap(static_cast<std::uint64_t>(v), toWidth);
}

}  // namespace ptxmm::frontend::ptx
