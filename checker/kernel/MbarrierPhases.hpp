// The ordering an mbarrier gives when its use is static (spec §2.6, §2.8 rule 4, §4.2): one mbarrier.init,
// ordered before every other operation on the object, then M plain arrive-ons (no expect_tx, no transaction
// bytes, no drop, no cp.async arrive), each executed by its thread in every execution, outside loops. The
// object's values are then a fixed sequence v0 (the init) .. vM, whatever order the arrivals run in (each
// arrival's write is the same function of the value it read, computed here), and the arrivals are one chain in
// coherence order when they are pairwise morally strong (RMW atomicity, §3.3). A wait whose success condition is
// false for every value but vM succeeds only by reading the last arrival of the chain: every arrival precedes it
// in observation order (obs = msrf ; (rmw ; msrf)*). So, for an arrival with release semantics (rp1) and an
// acquire wait (ap1) that are morally strong, everything po-before the arrival is in base causality order before
// everything po-after the successful wait (sw_ra; bc ⊇ po ; sw ; po). This is what `mbarrier.arrive` +
// `try_wait` hand-offs, cuda::barrier and cuda::ptx waits rely on; no engine run is needed for it, at any thread
// count. Anything outside that shape (relaxed arrives behind a fence, transaction counts, phases reused) leaves the
// object to the may-order graph and the slices. The rule is pinned by tests against the engines
// (tests/unit/checker/kernel/KernelCheckerTest.cpp, "mbarrier").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"

namespace ptxmm::checker::kernel {

class MbarrierPhases {
 public:
  /// `morallyStrong(a, b)`: the model's `ms` for two conflicting accesses; `surely(e)`: whether `e` happens in
  /// every execution (with nothing before it in its thread that might block forever).
  MbarrierPhases(const KernelGraph& kernel, const BarrierPhases& phases, std::function<bool(int, int)> morallyStrong,
                 std::function<bool(int)> surely);

  /// Whether a static mbarrier puts event a (po-before a release arrival) before event b (po-after a successful
  /// acquire wait on the same object) in every execution where both happen.
  bool ordered(int a, int b);
  /// The value a static mbarrier (physical location) holds once every arrival happened, when its waits succeed
  /// exactly on it (for the liveness of their loops).
  std::optional<std::int64_t> completedValue(int paddr) const;
  /// The values the read half of an arrival on a static mbarrier can return (v0 .. vM-1), if `e` is one.
  std::optional<std::vector<std::int64_t>> arrivalReadValues(int e) const;

 private:
  struct Object {
    std::vector<int> arrives;      // arrival write events
    std::vector<int> completions;  // success markers of acquire waits that succeed only on the last value
    std::vector<std::int64_t> values;  // v0 .. vM
    std::set<int> waitReads, tokens;   // the waits' reads; the arrivals' reads (a state token is one's value)
    std::map<int, int> releaseBefore;  // thread -> the largest release arrival event id in it (-1: none)
  };

  void analyse(int paddr, const std::vector<int>& events);
  bool acquiredBefore(int e, int paddr);
  bool infeasible(const ThreadPath& path, const Object& o);

  const KernelGraph& k_;
  KernelValues values_;  // forced values without the mbarrier order (the rule's own inputs)
  std::function<bool(int, int)> morallyStrong_;
  std::function<bool(int)> surely_;
  std::map<int, Object> objects_;            // physical location -> a static mbarrier
  std::map<std::pair<int, int>, bool> acquired_;  // (event, location) -> every path to it passes a completion
  std::map<std::string, bool> unsatisfiable_;     // assumptions on one wait's value, as text -> no value meets them
};

}  // namespace ptxmm::checker::kernel
