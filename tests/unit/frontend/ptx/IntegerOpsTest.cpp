// Unit tests of the concrete integer semantics at the edges the PTX ISA defines: wrap-around, shifts by the
// width and more, division by zero and min / -1 (unspecified: no value), mul.hi/.wide, saturation, bfe/bfi with
// out-of-range positions, the prmt modes, bfind, and cvt between widths.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "frontend/ptx/IntegerOps.hpp"

using namespace ptxmm::frontend::ptx;

namespace {
constexpr std::uint64_t u32(std::int64_t v) { return static_cast<std::uint64_t>(v) & 0xffffffffu; }
}  // namespace

TEST_CASE("canonical values: sign and zero extension", "[frontend][ptx]") {
  CHECK(signExtend(0xff, 8) == -1);
  CHECK(signExtend(0x7f, 8) == 127);
  CHECK(signExtend(0x80000000u, 32) == std::numeric_limits<std::int32_t>::min());
  CHECK(extend(0xffffffffu, 32, false) == 0xffffffffll);
  CHECK(extend(0xffffffffu, 32, true) == -1);
  CHECK(widthMask(64) == ~std::uint64_t{0});
}

TEST_CASE("mul: lo wraps, hi and wide keep the high half, signed and unsigned", "[frontend][ptx]") {
  CHECK(intMul(0x10000, 0x10000, 32, false, false, false) == 0);                  // mul.lo.u32 wraps
  CHECK(intMul(0x10000, 0x10000, 32, false, true, false) == 1);                   // mul.hi.u32
  CHECK(intMul(0xffffffff, 0xffffffff, 32, false, true, false) == 0xfffffffe);    // hi of (2^32-1)^2
  CHECK(intMul(0xffffffff, 0xffffffff, 32, true, true, false) == 0);              // (-1)*(-1) = 1: hi 0
  CHECK(intMul(u32(-2), 3, 32, true, false, true) == static_cast<std::uint64_t>(-6));  // mul.wide.s32
  CHECK(intMul(0xffffffff, 2, 32, false, false, true) == 0x1fffffffe);                // mul.wide.u32
  CHECK(intMul(~std::uint64_t{0}, 2, 64, false, true, false) == 1);               // mul.hi.u64
  CHECK(intMul(~std::uint64_t{0}, 2, 64, true, true, false) == ~std::uint64_t{0});  // mul.hi.s64 of -2
}

TEST_CASE("div and rem: truncation, and no value where PTX leaves it unspecified", "[frontend][ptx]") {
  CHECK(intDiv(u32(-7), 2, 32, true) == u32(-3));
  CHECK(intRem(u32(-7), 2, 32, true) == u32(-1));
  CHECK(intDiv(u32(-7), 2, 32, false) == 0x7ffffffc);
  CHECK(intRem(7, u32(-2), 32, true) == 1);
  CHECK_FALSE(intDiv(5, 0, 32, true));
  CHECK_FALSE(intRem(5, 0, 32, false));
  CHECK_FALSE(intDiv(0x80000000u, u32(-1), 32, true));
  CHECK_FALSE(intRem(0x80000000u, u32(-1), 32, true));
  CHECK(intDiv(0x80000000u, u32(-1), 32, false) == 0);  // unsigned: an ordinary division
}

TEST_CASE("shifts clamp their amount to the width", "[frontend][ptx]") {
  CHECK(intShl(1, 31, 32) == 0x80000000u);
  CHECK(intShl(1, 32, 32) == 0);
  CHECK(intShl(1, 1000, 64) == 0);
  CHECK(intShr(0x80000000u, 31, 32, false) == 1);
  CHECK(intShr(0x80000000u, 40, 32, false) == 0);
  CHECK(intShr(0x80000000u, 40, 32, true) == 0xffffffffu);
  CHECK(intShr(0x40000000u, 40, 32, true) == 0);
  CHECK(intShr(0x8000, 15, 16, true) == 0xffff);
  CHECK(intShr(~std::uint64_t{0}, 64, 64, true) == ~std::uint64_t{0});
  CHECK(intShr(~std::uint64_t{0}, 63, 64, false) == 1);
}

TEST_CASE("min, max, abs, compare and saturating add by signedness", "[frontend][ptx]") {
  CHECK(intMin(u32(-1), 1, 32, true) == u32(-1));
  CHECK(intMin(u32(-1), 1, 32, false) == 1);
  CHECK(intMax(u32(-1), 1, 32, false) == 0xffffffffu);
  CHECK(intAbs(0x80000000u, 32) == 0x80000000u);
  CHECK(intAbs(u32(-5), 32) == 5);
  CHECK(intCompare(IntCmp::Lt, u32(-1), 0, 32, true));
  CHECK_FALSE(intCompare(IntCmp::Lt, u32(-1), 0, 32, false));
  CHECK(intCompare(IntCmp::Ge, 0x8000, 1, 16, false));
  CHECK(intAddSat(0x7fffffff, 1, 32, false) == 0x7fffffffu);
  CHECK(intAddSat(0x80000000u, 1, 32, true) == 0x80000000u);
  CHECK(intAddSat(5, u32(-3), 32, false) == 2);
}

TEST_CASE("bfe and bfi at the edges of their ranges", "[frontend][ptx]") {
  CHECK(bitExtract(0xf0, 4, 4, 32, false) == 0xf);
  CHECK(bitExtract(0xf0, 4, 4, 32, true) == 0xffffffffu);    // the field's top bit replicated
  CHECK(bitExtract(0x70, 4, 4, 32, true) == 7);
  CHECK(bitExtract(0xf0, 4, 0, 32, true) == 0);              // length 0
  CHECK(bitExtract(0x80000000u, 31, 8, 32, true) == 0xffffffffu);  // field past the msb: sign of bit 31
  CHECK(bitExtract(0x80000000u, 40, 8, 32, true) == 0xffffffffu);  // start past the msb
  CHECK(bitExtract(0x12345678, 4 + 256, 8 + 256, 32, false) == 0x67);  // positions taken mod 256
  CHECK(bitInsert(0xf, 0, 4, 4, 32) == 0xf0);
  CHECK(bitInsert(0xff, 0x0fff0000u, 28, 8, 32) == 0xffff0000u);  // clipped at the msb
  CHECK(bitInsert(0xff, 0x1234, 40, 8, 32) == 0x1234);      // start past the msb: b unchanged
  CHECK(bitInsert(0xff, 0x1234, 0, 0, 32) == 0x1234);       // length 0
}

TEST_CASE("prmt: the generic form with sign replication and the six modes", "[frontend][ptx]") {
  const std::uint64_t a = 0x33221100, b = 0x77665544;
  CHECK(bytePermute(a, b, 0x3210, 0) == 0x33221100);
  CHECK(bytePermute(a, b, 0x7654, 0) == 0x77665544);
  CHECK(bytePermute(a, b, 0x0123, 0) == 0x00112233);
  CHECK(bytePermute(0x80, 0, 0x8888, 0) == 0xffffffff);  // msb of the selector: replicate byte 0's sign
  CHECK(bytePermute(a, b, 1, 1) == 0x44332211);          // f4e: bytes 4 3 2 1
  CHECK(bytePermute(a, b, 0, 2) == 0x55667700);          // b4e: bytes 5 6 7 0
  CHECK(bytePermute(a, b, 2, 3) == 0x22222222);          // rc8
  CHECK(bytePermute(a, b, 1, 4) == 0x33221111);          // ecl: 3 2 1 1
  CHECK(bytePermute(a, b, 1, 5) == 0x11111100);          // ecr: 1 1 1 0
  CHECK(bytePermute(a, b, 1, 6) == 0x33223322);          // rc16: 3 2 3 2
}

TEST_CASE("popc, clz, brev, bfind", "[frontend][ptx]") {
  CHECK(popCount(0xff00ff, 32) == 16);
  CHECK(popCount(~std::uint64_t{0}, 64) == 64);
  CHECK(leadingZeros(0, 32) == 32);
  CHECK(leadingZeros(1, 32) == 31);
  CHECK(leadingZeros(1, 64) == 63);
  CHECK(bitReverse(1, 32) == 0x80000000u);
  CHECK(bitReverse(0x80000000u, 64) == 0x100000000ull);
  CHECK(bitFind(0, 32, false, false) == 0xffffffffu);
  CHECK(bitFind(0x10, 32, false, false) == 4);
  CHECK(bitFind(0x10, 32, false, true) == 27);
  CHECK(bitFind(0xffffffffu, 32, true, false) == 0xffffffffu);  // -1: no non-sign bit
  CHECK(bitFind(u32(-16), 32, true, false) == 3);               // most significant 0 of a negative value
}

TEST_CASE("cvt between integer widths, with saturation", "[frontend][ptx]") {
  CHECK(intConvert(0x1ff, 32, false, 8, false, false) == 0xff);
  CHECK(intConvert(0x1ff, 32, false, 8, false, true) == 0xff);
  CHECK(intConvert(u32(-1), 32, true, 8, false, true) == 0);
  CHECK(intConvert(300, 32, true, 8, true, true) == 0x7f);
  CHECK(intConvert(u32(-300), 32, true, 8, true, true) == 0x80);
  CHECK(intConvert(u32(-1), 32, true, 64, true, false) == ~std::uint64_t{0});
  CHECK(intConvert(u32(-1), 32, false, 64, true, false) == 0xffffffffu);
  CHECK(intConvert(~std::uint64_t{0}, 64, false, 32, true, true) == 0x7fffffffu);
}
