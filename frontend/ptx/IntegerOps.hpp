// The exact semantics of PTX integer and bit instructions on concrete values, one function per instruction
// family, following the pseudo-code of the PTX ISA (chapter 9.7.1-9.7.3): values are the low `width` bits of
// a uint64_t, signed or unsigned as the instruction's type says; results wrap at the width; shifts clamp their
// amount to the width; bfe/bfi/prmt/bfind follow their bit-level definitions. Where PTX leaves a result
// unspecified (division by zero, signed division overflow) the function returns nullopt, and the caller makes
// the value opaque instead of inventing one.
#pragma once

#include <cstdint>
#include <optional>

namespace ptxmm::frontend::ptx {

/// The low `width` bits set (width 64: all).
constexpr std::uint64_t widthMask(int width) { return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1; }
/// The low `width` bits of `bits`, sign-extended to 64 bits.
constexpr std::int64_t signExtend(std::uint64_t bits, int width) {
  return width >= 64 ? static_cast<std::int64_t>(bits)
                     : static_cast<std::int64_t>(bits << (64 - width)) >> (64 - width);
}
/// `bits` read as a `width`-bit value: sign-extended when `isSigned`, zero-extended otherwise.
constexpr std::int64_t extend(std::uint64_t bits, int width, bool isSigned) {
  return isSigned ? signExtend(bits, width) : static_cast<std::int64_t>(bits & widthMask(width));
}

enum class IntCmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// a * b: the low (`wide` false, hi false), high (hi) half of the 2*width-bit product, or all of it (wide).
std::uint64_t intMul(std::uint64_t a, std::uint64_t b, int width, bool isSigned, bool hi, bool wide);
/// Truncating division; nullopt for b == 0 and for the signed overflow min / -1.
std::optional<std::uint64_t> intDiv(std::uint64_t a, std::uint64_t b, int width, bool isSigned);
/// Remainder with the dividend's sign; nullopt for b == 0 and for min % -1.
std::optional<std::uint64_t> intRem(std::uint64_t a, std::uint64_t b, int width, bool isSigned);
/// shl: amounts of width or more give 0.
std::uint64_t intShl(std::uint64_t a, std::uint64_t amount, int width);
/// shr: amounts of width or more give 0 (unsigned) or the sign everywhere (signed).
std::uint64_t intShr(std::uint64_t a, std::uint64_t amount, int width, bool isSigned);
std::uint64_t intMin(std::uint64_t a, std::uint64_t b, int width, bool isSigned);
std::uint64_t intMax(std::uint64_t a, std::uint64_t b, int width, bool isSigned);
/// |a| (abs of the most negative value is itself).
std::uint64_t intAbs(std::uint64_t a, int width);
/// The comparison `cmp` of a and b as `width`-bit signed or unsigned values.
bool intCompare(IntCmp cmp, std::uint64_t a, std::uint64_t b, int width, bool isSigned);
/// add.sat.s32 / sub.sat.s32: the exact sum clamped to the signed range.
std::uint64_t intAddSat(std::uint64_t a, std::uint64_t b, int width, bool subtract);
/// bfe: `len` bits of `a` from `pos` (both taken mod 256), sign-replicated for signed types.
std::uint64_t bitExtract(std::uint64_t a, std::uint64_t pos, std::uint64_t len, int width, bool isSigned);
/// bfi: `len` low bits of `a` inserted into `b` at `pos` (both taken mod 256).
std::uint64_t bitInsert(std::uint64_t a, std::uint64_t b, std::uint64_t pos, std::uint64_t len, int width);
/// prmt.b32 with `mode` 0 (the generic form) or one of f4e, b4e, rc8, ecl, ecr, rc16 (1..6).
std::uint64_t bytePermute(std::uint64_t a, std::uint64_t b, std::uint64_t c, int mode);
/// popc, clz, brev.
std::uint64_t popCount(std::uint64_t a, int width);
std::uint64_t leadingZeros(std::uint64_t a, int width);
std::uint64_t bitReverse(std::uint64_t a, int width);
/// bfind: the position of the most significant non-sign bit (0xffffffff when none); with shiftAmount, the left
/// shift that brings it to the top.
std::uint64_t bitFind(std::uint64_t a, int width, bool isSigned, bool shiftAmount);
/// cvt between integer types: `a` read as `from` bits (signed or not), converted to `to` bits; with `saturate`
/// clamped to the destination range first.
std::uint64_t intConvert(std::uint64_t a, int fromWidth, bool fromSigned, int toWidth, bool toSigned, bool saturate);

}  // namespace ptxmm::frontend::ptx
