// Order-independent combinations of atomic updates (FinalValuesCombine.hpp).
#include "checker/kernel/FinalValuesCombine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace ptxmm::checker::kernel {
namespace {

using frontend::AtomOp;

// Applies the updates in the order given (any order, once the caller knows they commute).
std::optional<std::int64_t> fold(std::int64_t base, const std::vector<RmwUpdate>& updates) {
  std::optional<std::int64_t> v = base;
  for (const RmwUpdate& u : updates) {
    v = u.apply(*v);
    if (!v) return std::nullopt;
  }
  return v;
}

bool commutingFamily(AtomOp op) {
  return op == AtomOp::Add || op == AtomOp::Or || op == AtomOp::And || op == AtomOp::Xor || op == AtomOp::Min ||
         op == AtomOp::Max;
}

// Whether every update of `from` has an update of `to` causally after it (so coherence-after it, spec §3.1).
bool eachFollowedBy(const std::vector<const RmwUpdate*>& from, const std::vector<const RmwUpdate*>& to,
                    const std::function<bool(int, int)>& before) {
  return std::all_of(from.begin(), from.end(), [&](const RmwUpdate* a) {
    return std::any_of(to.begin(), to.end(), [&](const RmwUpdate* b) { return before(a->write, b->write); });
  });
}

// A mix of `or` (sets its operand's bits) and `and` (clears the bits its operand lacks), bit by bit.
std::optional<std::int64_t> bitwise(std::int64_t base, const std::vector<RmwUpdate>& updates,
                                    const std::function<bool(int, int)>& before) {
  std::vector<std::uint64_t> sets, clears;  // per update
  for (const RmwUpdate& u : updates) {
    // x | m at x = 0 is m; x & m at x = ~0 is m.
    const auto m = u.apply(u.op == AtomOp::Or ? 0 : -1);
    if (!m) return std::nullopt;
    sets.push_back(u.op == AtomOp::Or ? static_cast<std::uint64_t>(*m) : 0);
    clears.push_back(u.op == AtomOp::And ? ~static_cast<std::uint64_t>(*m) : 0);
  }
  auto out = static_cast<std::uint64_t>(base);
  for (int bit = 0; bit < 64; ++bit) {
    const std::uint64_t mask = std::uint64_t{1} << bit;
    std::vector<const RmwUpdate*> setters, clearers;
    for (std::size_t i = 0; i < updates.size(); ++i) {
      if (sets[i] & mask) setters.push_back(&updates[i]);
      if (clears[i] & mask) clearers.push_back(&updates[i]);
    }
    bool one;
    if (setters.empty() && clearers.empty()) continue;  // the base's bit
    if (clearers.empty()) one = true;
    else if (setters.empty()) one = false;
    else if (eachFollowedBy(setters, clearers, before)) one = false;
    else if (eachFollowedBy(clearers, setters, before)) one = true;
    else return std::nullopt;
    out = one ? out | mask : out & ~mask;
  }
  return static_cast<std::int64_t>(out);
}

// A float of `bits` bits (its bit pattern, canonical or not) as a double; nothing for other widths.
std::optional<double> floatOf(std::int64_t pattern, int bits) {
  if (bits == 32) {
    const auto low = static_cast<std::uint32_t>(pattern);
    float f;
    std::memcpy(&f, &low, sizeof f);
    return f;
  }
  if (bits == 64) {
    double d;
    std::memcpy(&d, &pattern, sizeof d);
    return d;
  }
  return std::nullopt;
}

// Floating-point adds whose partial sums are all exact (the header's condition).
std::optional<std::int64_t> floatSum(std::int64_t base, const std::vector<RmwUpdate>& updates) {
  const int bits = updates.front().bits;
  const int significand = bits == 32 ? 24 : 53;
  std::vector<double> values{};
  const auto b = floatOf(base, bits);
  if (!b || (*b == 0 && std::signbit(*b))) return std::nullopt;
  values.push_back(*b);
  for (const RmwUpdate& u : updates) {
    const auto sum = u.apply(0);  // +0 + a is a (a -0 addend reads as +0: it changes nothing here either)
    const auto a = sum ? floatOf(*sum, bits) : std::nullopt;
    if (!a) return std::nullopt;
    values.push_back(*a);
  }
  // Each value as m 2^e with an odd integer m (doubles hold both widths' values exactly).
  std::vector<std::pair<std::int64_t, int>> parts;
  for (double v : values) {
    if (!std::isfinite(v)) return std::nullopt;
    if (v == 0) continue;
    int e = 0;
    auto m = static_cast<std::int64_t>(std::ldexp(std::frexp(v, &e), 53));
    e -= 53;
    while (m % 2 == 0) m /= 2, ++e;
    parts.emplace_back(m, e);
  }
  if (parts.empty()) return fold(base, updates);
  int q = parts.front().second;
  for (const auto& [m, e] : parts) q = std::min(q, e);
  const long double limit = std::ldexp(1.0L, significand);
  long double total = 0;  // the sum of the magnitudes in units of 2^q
  for (const auto& [m, e] : parts) {
    if (e - q > significand) return std::nullopt;
    total += std::ldexp(static_cast<long double>(std::llabs(m)), e - q);
    if (total > limit) return std::nullopt;
  }
  // No partial sum overflows either.
  if (std::ldexp(total, q) > (bits == 32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max()))
    return std::nullopt;
  return fold(base, updates);
}

}  // namespace

std::optional<std::int64_t> floatAdd(std::int64_t x, std::int64_t a, int bits) {
  const auto fx = floatOf(x, bits), fa = floatOf(a, bits);
  if (!fx || !fa) return std::nullopt;
  if (bits == 32) {
    const float sum = static_cast<float>(*fx) + static_cast<float>(*fa);
    std::int32_t pattern;
    std::memcpy(&pattern, &sum, sizeof pattern);
    return pattern;
  }
  const double sum = *fx + *fa;
  std::int64_t pattern;
  std::memcpy(&pattern, &sum, sizeof pattern);
  return pattern;
}

std::optional<std::int64_t> combineUpdates(std::int64_t base, const std::vector<RmwUpdate>& updates,
                                           const std::function<bool(int, int)>& before) {
  if (updates.empty()) return base;
  const RmwUpdate& first = updates.front();
  const auto all = [&](auto same) { return std::all_of(updates.begin(), updates.end(), same); };
  if (all([&](const RmwUpdate& u) { return u.shape == first.shape; })) return fold(base, updates);
  if (std::any_of(updates.begin(), updates.end(), [](const RmwUpdate& u) { return u.isFloat; }))
    return all([&](const RmwUpdate& u) { return u.isFloat && u.op == AtomOp::Add && u.bits == first.bits; })
               ? floatSum(base, updates)
               : std::nullopt;
  // Adds of different widths (an atom.add.u32 and a locked 64-bit increment of one 4-byte word) agree modulo the
  // location's width, to which the caller truncates.
  if (all([&](const RmwUpdate& u) { return u.op == AtomOp::Add; })) return fold(base, updates);
  const auto sameType = [&](const RmwUpdate& u) { return u.bits == first.bits && u.isUnsigned == first.isUnsigned; };
  if (commutingFamily(first.op) && all([&](const RmwUpdate& u) { return u.op == first.op && sameType(u); }))
    return fold(base, updates);
  if (all([&](const RmwUpdate& u) { return (u.op == AtomOp::Or || u.op == AtomOp::And) && sameType(u); }))
    return bitwise(base, updates, before);
  return std::nullopt;
}

}  // namespace ptxmm::checker::kernel
