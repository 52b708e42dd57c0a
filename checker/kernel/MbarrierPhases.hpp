// The ordering an mbarrier gives when its use is static (spec §2.5, §2.6, §2.8 rule 4, §4.2): one mbarrier.init,
// ordered before every other operation on the object, then N read-modify-writes of the object (arrive-ons, with or
// without expect_tx, expect_tx, complete_tx, and the implicit complete_tx of st.async / red.async / bulk copies),
// each executed by its thread in every execution, outside loops, each writing a function of the value it read
// (ptx-core.cat: the mbarrier operations are RMWs on the object's word). When they are pairwise morally strong they
// are one chain in coherence order (Coherence-ms, and RMW atomicity, §3.3: each reads its co-predecessor), so the
// k-th value of the chain is the state after the first k operations. Operations with the same write function are
// interchangeable; the states are computed per count vector (how many of each kind have happened) by applying each
// kind to the states one short of it, and the object is static when every count vector has one state whatever the
// order (the updates commute unless a phase completes on the way, and an early completion makes a wait succeed on
// an earlier state, which the next check sees). The last state vN is the object's value once all operations
// happened. A wait read that cannot return true on any earlier state reads the last operation of the chain when
// it succeeds: every operation precedes it in observation order (obs = msrf ; (rmw ; msrf)*). Transaction counts
// are the typical case: `arrive.expect_tx 256` and 64 `st.async` of 4 bytes complete the phase only with the last
// of them, in every order, since the pending count reaches 0 only with the arrival and the tx-count reaches 0 only
// when every byte is delivered. So sw_ra = ms & (rp ; obs ; ap) relates every release pattern of the operations to
// every acquire pattern of such a successful wait, when the pattern's head and tail are morally strong (checked
// with the model's `ms` for every head against every tail):
//   * release heads: a release arrival itself (rp1), or a release fence po-before a relaxed arrival (rp3), both
//     executed in every execution; the implicit complete_tx of an asynchronous operation (AAR in ptx-core.cat) heads
//     only for the accesses it tracks (`tracked ; sw-ra`: the operation's own accesses, through aint/adone), and
//     only generic-proxy ones (ppbc C1: the reader is a generic access of the same address);
//   * acquire tails: the success marker of an acquire wait that succeeds only on vN (ap4), or an acquire fence
//     po-after a wait read that the path's own conditions force to vN (ap3: the relaxed try_wait loop, then
//     fence.acquire).
// A word used as an mbarrier is one too (a counter barrier, cg::this_grid().sync(), cuda::latch): its writes are
// the launch's initial value, or one plain store ordered before every other access (the latch's constructor, then
// a barrier), and atomics executed in every execution (no mbarrier.init: the initial write precedes everything),
// and its reads poll it; a poll is then also an acquire tail itself when it is an acquire load the path's
// conditions force to vN (ap1: `atom.add.release.gpu` by every block, then `ld.acquire.gpu` until bit 31 flips
// against the value its own add returned, the state token).
// Everything po-before a head is then in base causality order before everything po-after a tail on every path
// (sw_ra; bc ⊇ po ; sw ; po). Restricted fences (spec §4.10, ptx-core.cat rel-restr/acq-restr) are heads and
// tails too, for what they cover only and without cumulativity, which a single sw step between a head's own
// po-predecessor and a tail's own po-successor respects: a `sync_restrict::shared::cta` release fence covers the
// thread's earlier .shared::cta accesses, `fence.mbarrier_init` its mbarrier.init, and a
// `sync_restrict::shared::cluster` acquire fence orders its later shared-memory accesses. This is what `mbarrier.arrive` + `try_wait` hand-offs, cuda::barrier, cuda::ptx
// waits, st.async pushes and the relaxed-arrive-plus-fences idiom rely on; no engine run is needed for it, at any
// thread count. Anything outside that shape (phases reused, operations in loops or on some paths only, a relaxed
// arrival with no fence before it) leaves the pair to the may-order graph and the slices. The rule is pinned by
// tests against the engines (tests/unit/checker/kernel/KernelCheckerTest.cpp, "mbarrier";
// MbarrierTxTest.cpp, transaction counts).
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

  /// Whether a static mbarrier puts event a (po-before a release head of an operation, or an asynchronous access its
  /// implicit complete_tx tracks) before event b (po-after an acquire tail of a successful wait on the same object,
  /// or issued there: the caller admits only issue-ordered asynchronous b) in every execution where both happen.
  bool ordered(int a, int b);
  /// Whether `op` (the write or read half of an operation on a static mbarrier: an arrive, a complete_tx; or an
  /// asynchronous access, of any proxy, that an implicit complete_tx tracks) comes before the end of a phase that an
  /// acquire tail before b has seen complete, in every execution where both happen: b then comes after op was
  /// performed (the lifetime of the CTA whose memory op accesses, PeerLifetimes).
  bool completedBefore(int op, int b);
  /// The value a static mbarrier (physical location) holds once every arrival happened, when its waits succeed
  /// exactly on it (for the liveness of their loops).
  std::optional<std::int64_t> completedValue(int paddr) const;
  /// The write events of a static mbarrier's operations (empty when `paddr` is none).
  std::vector<int> operations(int paddr) const;
  /// The values the read half of an operation on a static mbarrier can return (the states before its kind's last
  /// operation), if `e` is one.
  std::optional<std::vector<std::int64_t>> arrivalReadValues(int e) const;

 private:
  struct Object {
    int paddr = -1;
    std::vector<int> ops;          // the operations' write events
    std::vector<int> completions;  // success markers of acquire waits that succeed only on the last value
    std::set<int> obsWaitReads;    // wait reads every operation is morally strong with (obs reaches them)
    std::map<int, std::set<int>> heads;  // thread -> release heads: release arrivals, release fences before relaxed ones
    std::map<int, std::vector<int>> trackedBy;  // asynchronous access -> the implicit complete_tx writes tracking it
    std::vector<std::int64_t> earlier;  // the distinct states before the last one (v0 first)
    std::int64_t last = 0;              // vN
    std::map<int, std::vector<std::int64_t>> readValues;  // an operation's read -> the states it can read
    std::set<int> waitReads, tokens;   // the waits' reads; the operations' reads (a state token is one's value)
  };

  void analyse(int paddr, const std::vector<int>& events);
  // The states of the chain per count vector (Object::earlier, last, readValues); false when some count vector has
  // more than one state, a term cannot be evaluated, or there are too many vectors.
  bool chainStates(Object& o, int init);
  // Whether every path to e passes an acquire tail of the object that is morally strong with head h and orders e.
  bool acquiredBefore(int e, int paddr, int h);
  // Whether no state of the object (the earlier ones, and vN when `withLast`) read by the path's wait reads meets its
  // assumptions (withLast: the path is infeasible; without: it forces wait read `onlyWait`, or any wait read when
  // -1, to vN).
  bool excluded(const ThreadPath& path, const Object& o, bool withLast, int onlyWait);
  bool strong(int a, int b);

  const KernelGraph& k_;
  KernelValues values_;  // forced values without the mbarrier order (the rule's own inputs)
  std::function<bool(int, int)> morallyStrong_;
  std::function<bool(int)> surely_;
  std::map<int, Object> objects_;            // physical location -> a static mbarrier
  std::map<int, std::vector<int>> releaseFences_;  // thread -> its release fences (restricted ones too), by id
  std::map<int, std::vector<int>> asyncBefore_;    // event -> its predecessors in aint | adone
  std::map<std::tuple<int, int, std::string>, bool> acquired_;  // (event, location, kind of head) -> acquiredBefore
  std::map<std::string, bool> unsatisfiable_;     // assumptions on one wait's value, as text -> no value meets them
  std::map<std::tuple<std::string, std::string, int, int, bool>, bool> ms_;  // `ms` per kind of pair
};

}  // namespace ptxmm::checker::kernel
