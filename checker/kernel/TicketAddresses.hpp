// Accesses whose address is a ticket term (frontend/ptx/TicketTerm.hpp): `scale * T + addend` bytes into a
// global buffer, T the value an `atom.add` with a concrete increment returned — warp-aggregated atomics, stream
// compaction, work queues. The instantiator cannot give them a Program location (T is read from memory), so they
// are not in the residual code; this class decides, without the engines, which of them touch no byte any access
// of another thread touches. Those are then no part of any race, cannot synchronise with anything (no other
// thread reads or writes their bytes: spec §2.5–2.8 need a common location), and change only the final values
// of the bytes they can reach. Every other one stays UNKNOWN, as every symbolic address did before.
//
// Why a ticket's value is known well enough (spec § = ../shared/spec/ptx-model.md):
// * A counter's tickets are usable only when every write of the counter's bytes is the write half of one of its
//   ticket RMWs — each performed at most once (not in a loop of the residual code), all on exactly those bytes,
//   pairwise morally strong (§2.3, asked of the cat model through `morallyStrong`) — and no symbolic write can
//   reach the counter's buffer. Coherence (§2.12) orders those writes after the initial value; RMW atomicity
//   (§3.3, ms pairs; same-thread pairs by SC per location, §3.5) makes each RMW read its immediate
//   co-predecessor. So the RMWs performed, in co order, return init, init + n_1, init + n_1 + n_2, ...: the
//   intervals [T_i, T_i + n_i) are disjoint, and every T_i lies in [init, init + sum of the others' n].
// * Two accesses at e * (T_i + u_i) + r and e * (T_j + u_j) + r (same element size e >= both sizes, same r)
//   meet only when T_i - T_j = u_j - u_i, impossible when -n_i < u_j - u_i < n_j. Two accesses of one ticket
//   meet only when their addends overlap. Otherwise, the bounds of T must keep their byte ranges apart.
// * A term is exact only if no 32-bit step wraps (TicketTerm.hpp): checked against the bound of T.
//
// Final values of the elements decided writes reach (slotStates): when every RMW of the counters involved is
// performed in every complete execution and every write reaching the elements is a store of a constant reached
// on every path of its thread, each order of each counter's RMWs fixes every ticket, hence which store lands on
// which element. Every order is permitted only when nothing but the counter's own reads-from can order two of
// the RMWs (program order, a barrier, synchronisation through other locations: MayOrder.hpp finds no path from
// after one to before the other); otherwise (a __syncthreads between two threads' atomicAdds fixes who gets
// which ticket) the slots are not enumerated.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

class TicketAddresses {
 public:
  /// `morallyStrong(a, b)`: whether the model calls events a and b (of different threads) morally strong.
  TicketAddresses(const KernelGraph& graph, const std::function<bool(int, int)>& morallyStrong);

  /// Why kernel().symbolic[i] stays undecided; empty when its bytes meet no access of another thread.
  const std::string& undecided(std::size_t i) const { return why_[i]; }
  /// Whether symbolic access i may touch bytes [lo, hi) of `buffer` (always, when it is undecided).
  bool mayTouch(std::size_t i, int buffer, std::int64_t lo, std::int64_t hi) const;

  /// Bytes [lo, hi) of a buffer: one element of a claim.
  struct Element {
    int buffer = -1;
    std::int64_t lo = 0, hi = 0;
  };
  /// The permitted final values of `elements` (canonical at their size, one vector per state) when decided ticket
  /// writes reach some of them; nullopt when none does (`why` empty) or when they cannot be enumerated (`why`).
  /// `mayOrder(a, b)`: whether something other than their location's reads-from may order RMW a before RMW b.
  std::optional<std::vector<std::vector<std::int64_t>>> slotStates(const std::vector<Element>& elements,
                                                                   const std::function<bool(int, int)>& mayOrder,
                                                                   std::string& why) const;

 private:
  struct Bounds {
    std::int64_t lo = 0, hi = 0;  // the ticket's values: [lo, hi]
    std::string why;              // non-empty: the ticket cannot be used, and why
  };
  struct Range {
    int buffer = -1;
    std::int64_t lo = 0, hi = 0;  // bytes [lo, hi) the access may touch
  };
  void boundTickets(const std::function<bool(int, int)>& morallyStrong);
  std::int64_t initial(int buffer, std::int64_t offset, int size) const;
  std::string decide(std::size_t i) const;
  bool apart(std::size_t i, std::size_t j) const;

  const KernelGraph& graph_;
  std::vector<Bounds> tickets_;  // per KernelProgram::tickets
  std::vector<int> rmw_;         // per KernelProgram::tickets: the write event of its RMW (-1: none or several)
  std::vector<Range> ranges_;    // per symbolic access with a ticket address
  std::vector<std::string> why_;
};

}  // namespace ptxmm::checker::kernel
