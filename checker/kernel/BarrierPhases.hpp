// Static barrier structure of a launch (spec §2.8 rule 2, §4.4, §4.5; NOTES.md: exit and .aligned rules): for
// every CTA barrier (CTA, id) and warp barrier (warp, member mask), each thread's sequence of arrivals along its
// residual code. When the arrivals are static — every arrival on every complete path of its thread, with a
// constant id and count — generation k of a barrier is the k-th arrival of each participant, and
// `po ; syncbar ; po` is decided without any execution: an access before a thread's arrival at generation g is
// ordered before every access after another participant's wait at g. That is base causality (spec §2.9), which
// for same-address accesses in po of one CTA and proxy is causality order (§2.10 C1/C2); the rule is pinned
// against the engines by tests/unit/checker/kernel/BarrierPhasesTest.cpp.
//
// Mismatches are findings: a counted barrier that fewer threads reach than its count (a hang, at the waiting
// threads' barrier), or more arrivals than a multiple of its count (the last generation never fills); an aligned
// barrier without a count (`bar.sync`, `__syncthreads()`) that not every thread of the CTA executes (undefined
// behaviour); different counts in one generation. Structures the static rule cannot
// describe (arrivals in a data-dependent branch or a loop, more participants than the count) make the barrier
// dynamic: the phases say nothing about it, and the reason is kept so the verdict can say UNKNOWN.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelResult.hpp"

namespace ptxmm::checker::kernel {

class BarrierPhases {
 public:
  explicit BarrierPhases(const KernelGraph& kernel);

  /// Whether the barriers alone order event `a` before event `b` (a in po of its thread, b in po or an asynchronous
  /// access issued there: the caller admits only those issue order puts after their instruction; same CTA or warp).
  bool ordered(int a, int b) const;
  /// Whether `e` can never execute because its thread is stuck at (or undefined past) an earlier barrier.
  bool unreachable(int e) const;
  /// Whether barrier event `e` (an arrive or wait half) belongs to a barrier whose generations are static.
  bool isStatic(int e) const;
  /// When thread `t` stops before its instruction `from` (it spins there for ever), the first instruction of
  /// thread `u` that then blocks for ever: u's first waiting arrival at a generation of a barrier both share that t
  /// would arrive at only from `from` on (generation k of a static barrier is each participant's k-th arrival, and
  /// none completes before the earlier ones). nullopt when u never waits for t's later arrivals; `dynamic` is set
  /// when a barrier they share has no static generations (then which of u's arrivals blocks is not known).
  std::optional<int> blockedBy(int t, int from, int u, bool& dynamic) const;

  /// Hangs and undefined behaviour found in the barrier structure.
  const std::vector<KernelHang>& hangs() const { return hangs_; }
  /// Why some barrier's phases are not static (each one makes verdicts that need it UNKNOWN).
  const std::vector<std::string>& dynamicReasons() const { return dynamic_; }

 private:
  struct Arrival {
    int node = -1;       // the node of the arrive half
    int arriveEvent = -1;
    bool waits = false;  // bar.sync / bar.red / bar.warp.sync (a bar.arrive does not wait)
    std::optional<std::int64_t> count;
    int instr = -1;
  };
  struct Key {
    bool warp = false;  // bar.warp.sync (domain: the warp, id: the member mask)
    int domain = 0;     // the CTA, or the warp (global warp number)
    std::int64_t id = 0;
    bool operator<(const Key& o) const { return std::tie(warp, domain, id) < std::tie(o.warp, o.domain, o.id); }
  };
  struct Barrier {
    std::map<int, std::vector<Arrival>> arrivals;  // per thread, in program order
    bool dynamic = false;
  };

  Key keyOf(int e) const;
  void collect();
  void analyse(const Key& key, Barrier& b);
  void stuckAfter(int thread, int node);
  /// A counted barrier with more participants than its count, each arriving the same number of times: when the
  /// arrivals are not a multiple of the count and nothing but this barrier can stop a participant, the last
  /// generation never completes — a hang (its threads depend on the order of arrival, so nothing is cut off).
  void leftover(const Key& key, const Barrier& b, std::int64_t count);
  int warpOf(int thread) const;

  const KernelGraph& k_;
  std::map<Key, Barrier> barriers_;
  std::vector<std::vector<const std::pair<const Key, Barrier>*>> byThread_;  // barriers each thread arrives at
  std::vector<int> cutoff_;  // per thread: events at nodes after this one never execute (-1: none)
  std::vector<KernelHang> hangs_;
  std::vector<std::string> dynamic_;
};

}  // namespace ptxmm::checker::kernel
