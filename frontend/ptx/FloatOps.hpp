// The floating-point instructions ptxmm evaluates exactly on concrete values: f32/f64 add, sub, mul, fma/mad,
// div.rn, sqrt.rn, rcp.rn, min, max, abs, neg, the comparisons of setp (ordered and unordered), and cvt between
// f32, f64 and the integer types, with .ftz and .sat, following the PTX ISA (chapter 9.7.4). Only the
// round-to-nearest-even mode is evaluated (the host's); other rounding modes, approximate instructions and
// half-precision types give nullopt, and the caller makes the value opaque rather than guessing.
#pragma once

#include <cstdint>
#include <optional>

namespace ptxmm::frontend::ptx {

enum class FloatOp : std::uint8_t { Add, Sub, Mul, Div, Min, Max, Fma, Abs, Neg, Sqrt, Rcp };

/// How a float instruction rounds and flushes, from its qualifiers.
struct FloatMode {
  bool nearest = true;  // .rn or no rounding qualifier (false: .rz/.rm/.rp, or .approx/.full)
  bool ftz = false;     // .ftz: subnormal inputs and results become zero of the same sign
  bool sat = false;     // .sat: the result is clamped to [0, 1] (NaN gives 0)
};

/// The comparisons of setp on floats: the ordered six (false on NaN), their unordered forms (true on NaN),
/// and num/nan.
enum class FloatCmp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };

/// The properties testp tests, in the order of its qualifiers .finite .infinite .number .notanumber .normal
/// .subnormal.
enum class FloatTest : std::uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };

/// testp: whether the `width`-bit (32 or 64) float `bits` has property `t`.
bool floatTest(FloatTest t, std::uint64_t bits, int width);

/// The bits of the f32 nearest to the double whose bits are `f64Bits` (how an f32 instruction reads a decimal
/// float literal, which the reader keeps as a double).
std::uint64_t narrowToF32(std::uint64_t f64Bits);

/// `op` on `width`-bit (32 or 64) operand bits (c only for Fma); nullopt when not evaluated.
std::optional<std::uint64_t> floatArith(FloatOp op, std::uint64_t a, std::uint64_t b, std::uint64_t c, int width,
                                        const FloatMode& mode);
/// setp's comparison of two `width`-bit floats.
bool floatCompare(FloatCmp cmp, std::uint64_t a, std::uint64_t b, int width, bool ftz);

/// Rounding of a cvt: to nearest even (.rn / .rni), toward zero (.rz / .rzi), down (.rm / .rmi), up (.rp / .rpi).
enum class Rounding : std::uint8_t { Nearest, Zero, Down, Up };

/// cvt float -> integer: the value rounded by `r` (all four modes are exact here), clamped to the destination
/// range, NaN giving 0.
std::uint64_t floatToInt(std::uint64_t a, int fromWidth, int toWidth, bool toSigned, Rounding r, bool ftz);
/// cvt integer -> float (only .rn is evaluated), float -> float (narrowing only with .rn; widening exact; with
/// an integer rounding .rni etc. to an integral value of the same type).
std::optional<std::uint64_t> intToFloat(std::uint64_t a, int fromWidth, bool fromSigned, int toWidth, Rounding r);
std::optional<std::uint64_t> floatToFloat(std::uint64_t a, int fromWidth, int toWidth, std::optional<Rounding> integral,
                                          Rounding r, const FloatMode& mode);

}  // namespace ptxmm::frontend::ptx
