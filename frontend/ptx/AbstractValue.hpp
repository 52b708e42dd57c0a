// The value of a register (or of a thread-private memory slot) while a thread is partially evaluated. It is
// either known (Concrete), or lives in a residual register whose value the residual code computes exactly
// (Symbolic: it depends on memory some thread may write), or only approximately (Opaque: a float computed from
// symbolic inputs, a clock, an unwritten register, a value the IR cannot express). Concrete values are kept in
// one canonical form, the same the residual code uses for every register and memory location: the low
// `width` bits as a signed integer (sign-extended to 64 bits; predicates are 0 or 1). A symbolic or opaque
// value may remember the buffer it points into, so that a store through it is known to stay in that buffer,
// and a ticket term (TicketTerm.hpp) when it is a constant-linear function of an atomic add's returned value.
#pragma once

#include <cstdint>
#include <optional>

#include "frontend/ptx/TicketTerm.hpp"

namespace ptxmm::frontend::ptx {

struct AbsValue {
  enum class Kind : std::uint8_t { Undefined, Concrete, Symbolic, Opaque };
  Kind kind = Kind::Undefined;
  std::int64_t bits = 0;  // Concrete: the canonical value
  int provenance = -1;    // Symbolic / Opaque: the buffer the value points into, -1 when unknown
  std::optional<TicketTerm> ticket;  // Symbolic / Opaque: the value as a ticket term (its residual may be opaque)

  static AbsValue concrete(std::int64_t v) { return {Kind::Concrete, v, -1, std::nullopt}; }
  static AbsValue symbolic(int provenance = -1) { return {Kind::Symbolic, 0, provenance, std::nullopt}; }
  static AbsValue opaque(int provenance = -1) { return {Kind::Opaque, 0, provenance, std::nullopt}; }

  bool isConcrete() const { return kind == Kind::Concrete; }
  /// Whether the residual code holds the value in a register (symbolic or opaque).
  bool inRegister() const { return kind == Kind::Symbolic || kind == Kind::Opaque; }
  bool operator==(const AbsValue&) const = default;
};

}  // namespace ptxmm::frontend::ptx
