// How the atomic updates of one location combine into a value that does not depend on their order (FinalValues.hpp
// establishes the premise: the updates are totally ordered in coherence after a base write, each reads its
// immediate coherence predecessor, so the location ends as u_n(...u_1(base)) for THE coherence order u_1..u_n,
// which the checker does not know). The result is decided only when every order gives the same value:
//   * every update applies the same function f (their texts over the value read are equal): f^n(base), whatever
//     the order. This is the exact condition for `atom.inc` and `atom.dec`: ONE bound b (and width) for all of
//     them. Proof of the values, for the reader: inc is f(x) = (x >= b) ? 0 : x+1 (unsigned); on 0..b it is
//     x -> (x+1) mod (b+1), so f^n(x) = (x+n) mod (b+1) for x <= b, and a base above b wraps to 0 first:
//     f^n(x) = (n-1) mod (b+1). dec is g(x) = (x == 0 || x > b) ? b : x-1: g^n(x) = (x-n) mod (b+1) for x <= b,
//     (b-(n-1)) mod (b+1) above it. With two bounds b1 < b2 the functions do not commute (from x = b1, inc_b1
//     then inc_b2 gives 1, the other order 0), and inc with dec of one bound commute only on 0..b (from x > b,
//     inc then dec gives b, dec then inc 0): both fall back. atom.exch of one value is the same function too;
//   * every update is an `atom/red` of one commuting family of one width and signedness: add (wrapping, as before),
//     or, and, xor, min, max — f_a(f_b(x)) = f_b(f_a(x)) for each, so every order gives the same value;
//   * a mix of `or` and `and` (set bits, clear bits) of one width, bit by bit: a bit's final value is the one the
//     coherence-last update touching it gives (1 for an `or` with the bit set, 0 for an `and` with the bit clear;
//     others keep it). When every setter is causally before some clearer, the last toucher is a clearer (a
//     setter has a clearer coherence-after it, spec §3.1 Coherence): 0; symmetrically 1; no toucher: the base's
//     bit; otherwise the bit, and the value, is not decided.
//   * floating-point adds (`atom.add.f32/.f64`) of one width, when no order rounds: the base and every addend
//     finite, the base not -0, all of them integer multiples of one power of two q with the sum of their
//     magnitudes at most 2^24 q (binary32) or 2^53 q (binary64). Every partial sum, in any order, is then k q
//     with |k| within the significand, so exactly representable (also as a subnormal: q is at least the least
//     subnormal), every addition is exact and the result is the exact sum; a zero result is +0 (x + -x is +0
//     when rounding to nearest, a -0 addend changes no partial sum that is not -0, and none is).
// Anything else (exch of different values, cas, a mix of families) is not decided here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::checker::kernel {

/// One atomic update of a location: its operation and the function it applies to the value it reads.
struct RmwUpdate {
  int write = -1;                    // its write event
  frontend::AtomOp op = frontend::AtomOp::Add;
  int bits = 0;                      // the value width (0: untyped 64-bit litmus values)
  bool isUnsigned = false;           // min/max/inc/dec compare unsigned
  bool isFloat = false;              // a floating-point add of `bits`-wide IEEE values (their bit patterns)
  std::function<std::optional<std::int64_t>(std::int64_t)> apply;  // the value written after reading `old`
  std::string shape;                 // `apply` as text over the value read: equal texts are the same function
};

/// The bit pattern of x + a for IEEE values of `bits` (32 or 64) bits given as bit patterns, rounded to nearest
/// and canonical (a 32-bit pattern sign-extended, as locations keep values); nothing for other widths.
std::optional<std::int64_t> floatAdd(std::int64_t x, std::int64_t a, int bits);

/// The value the updates leave, applied in some coherence order to `base`, when every order gives the same one.
/// `before(a, b)`: write a is causally before write b in every execution where both happen.
std::optional<std::int64_t> combineUpdates(std::int64_t base, const std::vector<RmwUpdate>& updates,
                                           const std::function<bool(int, int)>& before);

}  // namespace ptxmm::checker::kernel
