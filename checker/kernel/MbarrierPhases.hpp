// The ordering an mbarrier gives when its use is static (spec §2.5, §2.6, §2.8 rule 4, §4.2): one mbarrier.init,
// ordered before every other operation on the object, then M plain arrive-ons (no expect_tx, no transaction
// bytes, no drop, no cp.async arrive), each executed by its thread in every execution, outside loops. The
// object's values are then a fixed sequence v0 (the init) .. vM, whatever order the arrivals run in (each
// arrival's write is the same function of the value it read, computed here), and the arrivals are one chain in
// coherence order when they are pairwise morally strong (RMW atomicity, §3.3). A wait read that cannot return
// true on any value but vM reads the last arrival of the chain when it succeeds: every arrival precedes it in
// observation order (obs = msrf ; (rmw ; msrf)*). So sw_ra = ms & (rp ; obs ; ap) relates every release
// pattern of the arrivals to every acquire pattern of such a successful wait, when the pattern's head and tail are
// morally strong (checked with the model's `ms` for every head against every tail):
//   * release heads: a release arrival itself (rp1), or a release fence po-before a relaxed arrival (rp3), both
//     executed in every execution;
//   * acquire tails: the success marker of an acquire wait that succeeds only on vM (ap4), or an acquire fence
//     po-after a wait read that the path's own conditions force to vM (ap3: the relaxed try_wait loop, then
//     fence.acquire).
// Everything po-before a head is then in base causality order before everything po-after a tail on every path
// (sw_ra; bc ⊇ po ; sw ; po). Restricted fences (spec §4.10, ptx-core.cat rel-restr/acq-restr) are heads and
// tails too, for what they cover only and without cumulativity, which a single sw step between a head's own
// po-predecessor and a tail's own po-successor respects: a `sync_restrict::shared::cta` release fence covers the
// thread's earlier .shared::cta accesses, `fence.mbarrier_init` its mbarrier.init, and a
// `sync_restrict::shared::cluster` acquire fence orders its later shared-memory accesses. This is what `mbarrier.arrive` + `try_wait` hand-offs, cuda::barrier, cuda::ptx
// waits and the relaxed-arrive-plus-fences idiom rely on; no engine run is needed for it, at any thread count.
// Anything outside that shape (transaction counts, phases reused, a relaxed arrival with no fence before it)
// leaves the pair to the may-order graph and the slices. The rule is pinned by tests against the engines
// (tests/unit/checker/kernel/KernelCheckerTest.cpp, "mbarrier").
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/ClusterPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"

namespace ptxmm::checker::kernel {

class MbarrierPhases {
 public:
  /// `morallyStrong(a, b)`: the model's `ms` for two events; `surely(e)`: whether `e` happens in every execution
  /// (with nothing before it in its thread that might block forever); `clusters` (optional): the order cluster
  /// barriers give, with the barrier phases', for the init's order before the other operations.
  MbarrierPhases(const KernelGraph& kernel, const BarrierPhases& phases, std::function<bool(int, int)> morallyStrong,
                 std::function<bool(int)> surely, const ClusterPhases* clusters = nullptr);

  /// Whether a static mbarrier puts event a (po-before a release head of an arrival) before event b (po-after an
  /// acquire tail of a successful wait on the same object) in every execution where both happen.
  bool ordered(int a, int b);
  /// The value a static mbarrier (physical location) holds once every arrival happened, when its waits succeed
  /// exactly on it (for the liveness of their loops).
  std::optional<std::int64_t> completedValue(int paddr) const;
  /// The values the read half of an arrival on a static mbarrier can return (v0 .. vM-1), if `e` is one.
  std::optional<std::vector<std::int64_t>> arrivalReadValues(int e) const;

 private:
  struct Object {
    int paddr = -1;
    std::vector<int> arrives;      // arrival write events
    std::vector<int> completions;  // success markers of acquire waits that succeed only on the last value
    std::set<int> obsWaitReads;    // wait reads every arrival is morally strong with (obs reaches them)
    std::map<int, std::set<int>> heads;  // thread -> release heads: release arrivals, release fences before relaxed ones
    std::vector<std::int64_t> values;  // v0 .. vM
    std::set<int> waitReads, tokens;   // the waits' reads; the arrivals' reads (a state token is one's value)
  };

  void analyse(int paddr, const std::vector<int>& events);
  // Whether every path to e passes an acquire tail of the object that is morally strong with head h and orders e.
  bool acquiredBefore(int e, int paddr, int h);
  // Whether no values v0 .. v(count-1) of the path's reads of the object satisfy its assumptions (count = M + 1:
  // the path is infeasible; count = M: it forces wait read `onlyWait`, or any wait read when -1, to vM).
  bool excluded(const ThreadPath& path, const Object& o, std::size_t count, int onlyWait);
  bool strong(int a, int b);

  const KernelGraph& k_;
  KernelValues values_;  // forced values without the mbarrier order (the rule's own inputs)
  std::function<bool(int, int)> morallyStrong_;
  std::function<bool(int)> surely_;
  std::map<int, Object> objects_;            // physical location -> a static mbarrier
  std::map<int, std::vector<int>> releaseFences_;  // thread -> its release fences (restricted ones too), by id
  std::map<std::tuple<int, int, std::string>, bool> acquired_;  // (event, location, kind of head) -> acquiredBefore
  std::map<std::string, bool> unsatisfiable_;     // assumptions on one wait's value, as text -> no value meets them
  std::map<std::tuple<std::string, std::string, int, int, bool>, bool> ms_;  // `ms` per kind of pair
};

}  // namespace ptxmm::checker::kernel
