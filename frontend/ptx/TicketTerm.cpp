// Arithmetic on ticket terms (TicketTerm.hpp). Scales are capped at 2^24 and addends at 2^52 (global buffers
// start at 2^40) so that the checker's bounds (scale * T + addend with T < 2^31) never overflow 64 bits.
#include "frontend/ptx/TicketTerm.hpp"

#include <algorithm>

namespace ptxmm::frontend::ticket_term {
namespace {

constexpr std::int64_t kScaleCap = std::int64_t{1} << 24, kCap = std::int64_t{1} << 52;

std::optional<TicketTerm> capped(const TicketTerm& t) {
  if (t.scale < 0 || t.scale > kScaleCap || t.addend > kCap || t.addend < -kCap) return std::nullopt;
  return t;
}

}  // namespace

std::optional<TicketTerm> fresh(int ticket, int bits) {
  TicketTerm t;
  t.ticket = ticket;
  return at(t, bits);
}

std::optional<TicketTerm> plus(const TicketTerm& t, std::int64_t c) {
  if (c > kCap || c < -kCap) return std::nullopt;
  TicketTerm r = t;
  r.addend += c;
  return capped(r);
}

std::optional<TicketTerm> times(const TicketTerm& t, std::int64_t k) {
  if (k < 0 || k > kScaleCap || (k > 0 && (t.scale > kScaleCap / k || t.addend > kCap / k || t.addend < -kCap / k)))
    return std::nullopt;
  TicketTerm r = t;
  r.scale *= k;
  r.addend *= k;
  return capped(r);
}

std::optional<TicketTerm> at(const TicketTerm& t, int bits) {
  if (bits == 64) return t;
  if (bits != 32) return std::nullopt;
  TicketTerm r = t;
  r.narrowScale = t.narrowed ? std::max(t.narrowScale, t.scale) : t.scale;
  r.narrowLow = t.narrowed ? std::min(t.narrowLow, t.addend) : t.addend;
  r.narrowHigh = t.narrowed ? std::max(t.narrowHigh, t.addend) : t.addend;
  r.narrowed = true;
  return r;
}

bool exactUpTo(const TicketTerm& t, std::int64_t maxTicket) {
  if (!t.narrowed) return true;
  if (t.narrowLow < 0 || maxTicket < 0 || maxTicket >= (std::int64_t{1} << 31)) return false;
  return t.narrowScale * maxTicket + t.narrowHigh < (std::int64_t{1} << 31);
}

}  // namespace ptxmm::frontend::ticket_term
