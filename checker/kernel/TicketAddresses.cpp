// Ticket-addressed accesses told apart (TicketAddresses.hpp).
#include "checker/kernel/TicketAddresses.hpp"

#include <algorithm>
#include <map>
#include <set>

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
  std::vector<int>& writeOf = rmw_;
  writeOf.assign(kernel.tickets.size(), -1);
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
    const std::int64_t start = initial(buffer, offset, size);
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

// The initial value of bytes [offset, offset + size) of `buffer`, little-endian, signed at its size.
std::int64_t TicketAddresses::initial(int buffer, std::int64_t offset, int size) const {
  const auto& init = graph_.kernel().buffers[static_cast<std::size_t>(buffer)].init;
  std::uint64_t bits = 0;
  for (int i = size - 1; i >= 0; --i) {
    const auto at = static_cast<std::size_t>(offset + i);
    bits = bits << 8 | (at < init.size() ? init[at] : 0);
  }
  const int shift = 64 - 8 * size;
  return static_cast<std::int64_t>(bits << shift) >> shift;
}

std::optional<std::vector<std::vector<std::int64_t>>> TicketAddresses::slotStates(const std::vector<Element>& elements,
                                                                                  const std::function<bool(int, int)>& mayOrder,
                                                                                  std::string& why) const {
  constexpr std::size_t kMaxOrders = 40320;  // 8! orders of one counter's RMWs
  const auto& kernel = graph_.kernel();
  std::vector<std::size_t> writes;  // decided ticket stores that reach some element
  for (std::size_t i = 0; i < kernel.symbolic.size(); ++i) {
    if (!why_[i].empty() || !kernel.symbolic[i].write) continue;
    for (const auto& e : elements)
      if (mayTouch(i, e.buffer, e.lo, e.hi)) {
        writes.push_back(i);
        break;
      }
  }
  why.clear();
  if (writes.empty()) return std::nullopt;
  const auto fail = [&](std::string reason) -> std::optional<std::vector<std::vector<std::int64_t>>> {
    why = std::move(reason);
    return std::nullopt;
  };
  for (const auto& e : elements)
    for (const auto& a : graph_.accesses())
      if (a.write && a.buffer == e.buffer && a.lo < e.hi && e.lo < a.hi)
        return fail("the claim's elements are written at " + lineOf(graph_.position(a.event)) +
                    " and by ticket-addressed stores: claims that mix the two are not supported yet");
  std::vector<std::size_t> counted;  // the tickets whose orders are enumerated: every ticket of the counters used
  for (std::size_t i : writes) {
    const frontend::SymbolicAccess& s = kernel.symbolic[i];
    const frontend::TicketAddress& a = *s.address;
    const std::string at = "the store at " + lineOf(graph_.originPosition(s.thread, s.origin));
    if (!a.always || !a.stored) return fail(at + " may not run, or stores a value ptxmm does not compute: its slots' final values are not enumerated");
    for (const auto& e : elements)
      if (mayTouch(i, e.buffer, e.lo, e.hi) && (e.hi - e.lo != a.size || a.term.scale % a.size != 0 || (a.term.addend - e.lo) % a.size != 0))
        return fail(at + " may cover an element of the claim only in part: not supported yet");
    const auto& k = kernel.tickets[static_cast<std::size_t>(a.term.ticket)];
    for (std::size_t t = 0; t < kernel.tickets.size(); ++t) {
      const auto& o = kernel.tickets[t];
      if (o.buffer != k.buffer || o.offset != k.offset || o.size != k.size ||
          std::find(counted.begin(), counted.end(), t) != counted.end())
        continue;
      if (!graph_.unconditional(rmw_[t]))
        return fail("the atomic at " + lineOf(graph_.position(rmw_[t])) + " may not run: its counter's tickets are not enumerated");
      counted.push_back(t);
    }
  }
  // Group the counted tickets by counter; each group is permuted on its own.
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t t : counted) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const std::vector<std::size_t>& x) {
      const auto &a = kernel.tickets[x.front()], &b = kernel.tickets[t];
      return a.buffer == b.buffer && a.offset == b.offset;
    });
    if (g == groups.end()) groups.push_back({t});
    else g->push_back(t);
  }
  // Every order of a counter's RMWs must be permitted: none of them may be ordered before another.
  for (const auto& g : groups)
    for (std::size_t x : g)
      for (std::size_t y : g)
        if (x != y && mayOrder(rmw_[x], rmw_[y]))
          return fail("the atomics at " + lineOf(graph_.position(rmw_[x])) + " and " + lineOf(graph_.position(rmw_[y])) +
                      " may be ordered (a barrier or synchronisation between them): not every order of their counter's "
                      "RMWs is permitted, so its slots' final values are not enumerated");
  std::size_t orders = 1;
  for (auto& g : groups) {
    std::sort(g.begin(), g.end());
    for (std::size_t n = 2; n <= g.size(); ++n)
      if ((orders *= n) > kMaxOrders) return fail("the counters' RMWs have more than " + std::to_string(kMaxOrders) + " orders");
  }
  std::vector<std::int64_t> value(kernel.tickets.size(), 0);
  std::set<std::vector<std::int64_t>> states;
  std::string clash;
  // Visits every combination of one order per group (std::next_permutation per group, odometer-style).
  for (bool more = true; more;) {
    for (const auto& g : groups) {
      const auto& first = kernel.tickets[g.front()];
      std::int64_t next = initial(first.buffer, first.offset, first.size);
      for (std::size_t t : g) {
        value[t] = next;
        next += kernel.tickets[t].increment;
      }
    }
    std::vector<std::int64_t> state;
    for (const auto& e : elements) {
      std::optional<std::int64_t> v;
      int landed = 0;
      for (std::size_t i : writes) {
        const frontend::TicketAddress& a = *kernel.symbolic[i].address;
        if (a.buffer == e.buffer && a.term.scale * value[static_cast<std::size_t>(a.term.ticket)] + a.term.addend == e.lo) {
          v = a.stored;
          ++landed;
        }
      }
      if (landed > 1) clash = "two ticket-addressed stores of one thread may land on one element of the claim: not supported yet";
      state.push_back(v ? *v : initial(e.buffer, e.lo, static_cast<int>(e.hi - e.lo)));
    }
    if (!clash.empty()) return fail(clash);
    states.insert(std::move(state));
    more = false;
    for (auto& g : groups)
      if (std::next_permutation(g.begin(), g.end())) {
        more = true;
        break;
      }  // a group that wrapped back to sorted order carries into the next one
  }
  return std::vector<std::vector<std::int64_t>>(states.begin(), states.end());
}

bool TicketAddresses::mayTouch(std::size_t i, int buffer, std::int64_t lo, std::int64_t hi) const {
  if (!why_[i].empty()) return true;
  const Range& r = ranges_[i];
  return r.buffer == buffer && r.lo < hi && lo < r.hi;
}

}  // namespace ptxmm::checker::kernel
