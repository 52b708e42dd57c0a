// Ticket-addressed accesses told apart (TicketAddresses.hpp).
#include "checker/kernel/TicketAddresses.hpp"

#include <algorithm>
#include <map>

namespace ptxmm::checker::kernel {
namespace {

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

// x mod m in [0, m), and the matching floor division.
std::int64_t floorMod(std::int64_t x, std::int64_t m) { return ((x % m) + m) % m; }
std::int64_t floorDiv(std::int64_t x, std::int64_t m) { return (x - floorMod(x, m)) / m; }

}  // namespace

TicketAddresses::TicketAddresses(const KernelGraph& graph, const std::function<bool(int, int)>& morallyStrong)
    : graph_(graph) {
  const auto& kernel = graph.kernel();
  boundTickets(morallyStrong);
  ranges_.resize(kernel.symbolic.size());
  why_.resize(kernel.symbolic.size());
  for (std::size_t i = 0; i < kernel.symbolic.size(); ++i) {
    const auto& address = kernel.symbolic[i].address;
    if (!address) {
      why_[i] = kernel.symbolic[i].reason;
      continue;
    }
    const Bounds& t = tickets_[static_cast<std::size_t>(address->term.ticket)];
    if (!t.why.empty()) {
      why_[i] = t.why;
      continue;
    }
    ranges_[i] = {address->buffer, address->term.scale * t.lo + address->term.addend,
                  address->term.scale * t.hi + address->term.addend + address->size};
  }
  for (std::size_t i = 0; i < kernel.symbolic.size(); ++i)
    if (why_[i].empty()) why_[i] = decide(i);
}

// Each ticket's bounds, or why its counter's tickets are not usable (TicketAddresses.hpp).
void TicketAddresses::boundTickets(const std::function<bool(int, int)>& morallyStrong) {
  const auto& kernel = graph_.kernel();
  tickets_.resize(kernel.tickets.size());
  // The write event of each ticket's RMW (-1: none or several).
  std::vector<int> writeOf(kernel.tickets.size(), -1);
  std::map<std::pair<int, int>, std::vector<std::size_t>> byInstruction;  // (thread, origin) -> tickets
  for (std::size_t t = 0; t < kernel.tickets.size(); ++t)
    byInstruction[{kernel.tickets[t].thread, kernel.tickets[t].origin}].push_back(t);
  std::map<std::pair<int, int>, int> writes;  // (thread, origin) -> write events seen
  for (const auto& a : graph_.accesses()) {
    if (!a.write) continue;
    const auto key = std::pair{graph_.event(a.event).thread, graph_.instruction(a.event).origin};
    if (!byInstruction.count(key)) continue;
    ++writes[key];
    for (std::size_t t : byInstruction[key]) writeOf[t] = a.event;
  }
  for (std::size_t t = 0; t < kernel.tickets.size(); ++t) {
    const auto& k = kernel.tickets[t];
    const auto key = std::pair{k.thread, k.origin};
    if (byInstruction[key].size() != 1 || writes[key] != 1 || graph_.inLoop(writeOf[t]))
      tickets_[t].why = "the atomic at " + lineOf(graph_.originPosition(k.thread, k.origin)) +
                        " may return several values in one thread (it is repeated, or in a loop): its tickets are not told apart";
  }
  // Per counter (buffer, offset, size): its tickets, then the conditions on every write of its bytes.
  std::map<std::tuple<int, std::int64_t, int>, std::vector<std::size_t>> counters;
  for (std::size_t t = 0; t < kernel.tickets.size(); ++t)
    counters[{kernel.tickets[t].buffer, kernel.tickets[t].offset, kernel.tickets[t].size}].push_back(t);
  for (const auto& [counter, members] : counters) {
    const auto& [buffer, offset, size] = counter;
    const std::string name = "'" + kernel.buffers[static_cast<std::size_t>(buffer)].name + "' (bytes " +
                             std::to_string(offset) + ".." + std::to_string(offset + size) + ")";
    std::string why;
    std::vector<int> events;
    for (std::size_t t : members) {
      if (!tickets_[t].why.empty()) why = tickets_[t].why;
      events.push_back(writeOf[t]);
    }
    for (const auto& a : graph_.accesses()) {
      if (!why.empty()) break;
      if (!a.write || a.buffer != buffer || a.hi <= offset || a.lo >= offset + size) continue;
      if (std::find(events.begin(), events.end(), a.event) == events.end() || a.lo != offset || a.hi != offset + size)
        why = "the counter " + name + " is also written at " + lineOf(graph_.position(a.event)) +
              ", not only by atomic adds whose results are used: its tickets are not told apart";
    }
    for (const auto& s : kernel.symbolic)
      if (why.empty() && s.write && std::find(s.buffers.begin(), s.buffers.end(), buffer) != s.buffers.end())
        why = "the counter " + name + " may be written through the address at " + lineOf(graph_.originPosition(s.thread, s.origin)) +
              ": its tickets are not told apart";
    for (std::size_t x = 0; x < events.size() && why.empty(); ++x)
      for (std::size_t y = x + 1; y < events.size() && why.empty(); ++y)
        if (graph_.event(events[x]).thread != graph_.event(events[y]).thread && !morallyStrong(events[x], events[y]))
          why = "the atomics on the counter " + name + " at " + lineOf(graph_.position(events[x])) + " and " +
                lineOf(graph_.position(events[y])) + " are not morally strong (spec §3.3: no atomicity between them)";
    // The counter's initial value, little-endian, signed at its size.
    const auto& init = kernel.buffers[static_cast<std::size_t>(buffer)].init;
    std::uint64_t bits = 0;
    for (int i = size - 1; i >= 0; --i) {
      const auto at = static_cast<std::size_t>(offset + i);
      bits = bits << 8 | (at < init.size() ? init[at] : 0);
    }
    const int shift = 64 - 8 * size;
    const std::int64_t start = static_cast<std::int64_t>(bits << shift) >> shift;
    const std::int64_t limit = size == 4 ? (std::int64_t{1} << 31) : (std::int64_t{1} << 40);
    std::int64_t total = start;
    for (std::size_t t : members) total = total + kernel.tickets[t].increment < limit ? total + kernel.tickets[t].increment : limit;
    if (why.empty() && (start < 0 || total >= limit))
      why = "the counter " + name + " may wrap or start negative: its tickets are not bounded";
    for (std::size_t t : members) {
      tickets_[t].why = why;
      tickets_[t].lo = start;
      tickets_[t].hi = total - kernel.tickets[t].increment;
    }
  }
}

// Whether decided symbolic accesses i and j (ticket addresses, both exact) can never touch a common byte.
bool TicketAddresses::apart(std::size_t i, std::size_t j) const {
  const Range &ri = ranges_[i], &rj = ranges_[j];
  if (ri.buffer != rj.buffer || ri.hi <= rj.lo || rj.hi <= ri.lo) return true;
  const auto& kernel = graph_.kernel();
  const frontend::TicketAddress &a = *kernel.symbolic[i].address, &b = *kernel.symbolic[j].address;
  if (a.term.scale != b.term.scale) return false;
  if (a.term.ticket == b.term.ticket)  // one runtime value: the addends decide
    return a.term.addend + a.size <= b.term.addend || b.term.addend + b.size <= a.term.addend;
  const auto& ta = kernel.tickets[static_cast<std::size_t>(a.term.ticket)];
  const auto& tb = kernel.tickets[static_cast<std::size_t>(b.term.ticket)];
  const std::int64_t e = a.term.scale;
  if (ta.buffer != tb.buffer || ta.offset != tb.offset || ta.size != tb.size || e <= 0 || a.size > e || b.size > e ||
      floorMod(a.term.addend, e) != floorMod(b.term.addend, e))
    return false;
  const std::int64_t d = floorDiv(b.term.addend, e) - floorDiv(a.term.addend, e);  // slots meet iff T_a - T_b == d
  return -ta.increment < d && d < tb.increment;
}

// Why symbolic access i (its ticket usable) may still touch a byte another thread's access touches, or "".
std::string TicketAddresses::decide(std::size_t i) const {
  const auto& kernel = graph_.kernel();
  const frontend::SymbolicAccess& s = kernel.symbolic[i];
  const Range& r = ranges_[i];
  const auto& term = s.address->term;
  const std::string at = "the access at " + lineOf(graph_.originPosition(s.thread, s.origin));
  if (!frontend::ticket_term::exactUpTo(term, tickets_[static_cast<std::size_t>(term.ticket)].hi))
    return at + ": its address may wrap around in 32 bits for some ticket value";
  const auto& buffer = kernel.buffers[static_cast<std::size_t>(r.buffer)];
  if (r.lo < 0 || r.hi > buffer.bytes)
    return at + " may fall outside '" + buffer.name + "' (bytes " + std::to_string(r.lo) + ".." + std::to_string(r.hi) +
           " for the ticket values the counter allows)";
  for (const auto& a : graph_.accesses())
    if (a.buffer == r.buffer && a.lo < r.hi && r.lo < a.hi && (a.write || s.write) && graph_.event(a.event).thread != s.thread)
      return at + " may touch the bytes the access at " + lineOf(graph_.position(a.event)) + " touches";
  for (std::size_t j = 0; j < kernel.symbolic.size(); ++j) {
    const frontend::SymbolicAccess& o = kernel.symbolic[j];
    if (j == i || o.thread == s.thread || !(o.write || s.write)) continue;
    if (!o.address || !tickets_[static_cast<std::size_t>(o.address->term.ticket)].why.empty()) {
      if (o.write && std::find(o.buffers.begin(), o.buffers.end(), r.buffer) != o.buffers.end())
        return at + " may touch the bytes the access at " + lineOf(graph_.originPosition(o.thread, o.origin)) + " writes";
      continue;  // a read through an address with no usable term is UNKNOWN by itself
    }
    if (!apart(i, j))
      return at + " may touch the bytes the access at " + lineOf(graph_.originPosition(o.thread, o.origin)) + " touches";
  }
  return "";
}

bool TicketAddresses::mayTouch(std::size_t i, int buffer, std::int64_t lo, std::int64_t hi) const {
  if (!why_[i].empty()) return true;
  const Range& r = ranges_[i];
  return r.buffer == buffer && r.lo < hi && lo < r.hi;
}

}  // namespace ptxmm::checker::kernel
