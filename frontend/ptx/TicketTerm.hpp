// Values carried from an atomic add to the addresses built from it. `atom.add` with a concrete increment returns
// the counter's old value T (a "ticket"); the registers computed from it by adding and scaling with constants —
// in its own thread, and in the lanes it is copied to by shfl.sync, which copies the same runtime value — are
// `scale * T + addend`. The instantiator records such terms for the addresses of accesses it cannot make
// concrete; the checker bounds T and tells tickets of one counter apart (checker/kernel/TicketAddresses.hpp).
//
// A term is the exact mathematical value only while no step wraps: every step computed in a 32-bit register
// (the atomic's own result included) is remembered as a "narrow stage", and the checker accepts the term only
// when each such stage stays in [0, 2^31) for every T it allows (then sign- and zero-extension agree too).
#pragma once

#include <cstdint>
#include <optional>

namespace ptxmm::frontend {

struct TicketTerm {
  int ticket = -1;            // KernelProgram::tickets index
  std::int64_t scale = 1;     // >= 0
  std::int64_t addend = 0;
  bool narrowed = false;      // some step was computed in 32 bits: its value lies in
  std::int64_t narrowScale = 0, narrowLow = 0, narrowHigh = 0;  // [narrowLow, narrowScale * T + narrowHigh]
  bool operator==(const TicketTerm&) const = default;
};

namespace ticket_term {

/// The term of a fresh ticket returned in a `bits`-wide register (nullopt for widths other than 32 and 64).
std::optional<TicketTerm> fresh(int ticket, int bits);
/// t + c (nullopt when the numbers grow past what the checker can bound without overflow).
std::optional<TicketTerm> plus(const TicketTerm& t, std::int64_t c);
/// t * k for a constant k >= 0 (nullopt for a negative k or overflow).
std::optional<TicketTerm> times(const TicketTerm& t, std::int64_t k);
/// t held in a `bits`-wide register: 64 keeps it, 32 adds a narrow stage, anything else loses it.
std::optional<TicketTerm> at(const TicketTerm& t, int bits);
/// Whether every narrow stage stays in [0, 2^31) for tickets T in [0, maxTicket].
bool exactUpTo(const TicketTerm& t, std::int64_t maxTicket);

}  // namespace ticket_term
}  // namespace ptxmm::frontend
