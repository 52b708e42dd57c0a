// Spin locks in a launch (issue 18): a lock word L taken by a compare-and-swap loop and given back by one write,
// with the critical section between them, recognised on every thread's residual code so that the accesses it
// protects are decided from ONE hand-off between two holders instead of a slice of every thread.
//
// A lock of word L (all of these, else L is no lock and nothing here decides anything):
//   * every thread that touches L does it in one lock region: an acquire loop whose only memory instruction is
//     `atom.cas L, FREE, HELD` (FREE != HELD, immediates or registers set once by a `mov` every path runs) and
//     whose only exit is its back edge's branch not taken when the CAS returned FREE (nothing jumps past its
//     head), possibly after a peeled first attempt (the instantiator's rotated loop: the same CAS, a branch to the
//     loop taken when it failed, a `goto` to the section); then a straight-line critical section (no branch,
//     label jumped to from elsewhere, loop, barrier or wait, no access of L, no event that may not happen such as
//     a CAS's write) ending at the unlock, the first access of L after the loop: `atom.exch L, FREE` or
//     `st L, FREE`; the region is in no other loop;
//   * every other access of L is a write of FREE ordered (KernelValues::before) before every lock operation of L,
//     and L starts FREE when there is none; the lock operations of L are pairwise morally strong (the model's ms);
//   * every critical section performs at least one event (the chain below goes through it).
// Then (spec §3.3 atomicity, §3.5 SC per location) the writes of L in coherence are acq_1 unl_1 acq_2 unl_2 ...:
// a CAS succeeds only reading FREE, from its immediate coherence predecessor, so a held L is written next by the
// holder's own unlock (the first unlock that follows an acquire of another thread would pair two acquires with
// one unlock). So holders succeed one at a time and the next holder's acquire reads the previous holder's unlock.
//
// One hand-off H -> N is decided by the cat model on a canonical execution of the two threads' lock regions: N's
// acquire reads H's unlock, H's acquire reads the initial value, the unlocks read their own thread's acquire,
// every other read the initial value; no fence-SC order and no barrier synchronisation. Every relation of the
// model's base causality `bc0` = (po | sw | ...)+ is built by union, composition and closure from po, rf and
// static relations, so a launch execution in which N's acquire reads H's unlock has at least these edges (its
// other reads add rf edges, its fence order adds sc edges) and at least this bc0. The hand-off ORDERS when every
// event strictly inside H's section is bc0-before every event strictly inside N's. When every ordered pair of
// lock users' hand-off orders, any two critical sections of L are ordered: for holders H_0 .. H_k in coherence
// order, x in H_0's section bc0 z_1 bc0 z_2 ... bc0 y in H_k's (z_i any event inside H_i's section, bc0
// transitive); for two generic accesses of one address, bc0 is in `cause` (ppbc case C1), so they do not race.
// When some hand-off does not order, the canonical execution of the two accesses' threads, when the model's checks
// accept it, is the race's witness (N takes the lock right after H, the other threads after them).
//
// Counters: a location X whose accesses are all inside sections of one ordered lock, each section reading X once
// and then writing it once with that value plus a constant c, ends at its earlier value plus the sum of the c's
// (FinalValues): each section's read is causally after every earlier holder's write and before every later one,
// so Causality and Coherence (§3.1, §3.6) make it read the previous holder's write.
//
// Liveness: the acquire loop of a lock whose sections wait for nothing ends under fair scheduling when every lock
// user runs its region once (no loop around it): finitely many acquisitions, each holder reaches its unlock, so
// after the last unlock L stays FREE, and that write is eventually visible (the model's `eventually-visible`) to
// the CAS, which then succeeds.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"
#include "checker/kernel/PairOracle.hpp"
#include "checker/Execution.hpp"
#include "model/Evaluator.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker::kernel {

/// One thread's lock region (kernel instruction indices).
struct LockRegion {
  int thread = -1;
  int loop = -1;     // the acquire loop (index into the thread's loops)
  int cas = -1;      // the acquire loop's compare-and-swap
  std::vector<int> acquires;  // every compare-and-swap that takes the lock: the loop's, a peeled first attempt's
  int unlock = -1;   // the releasing write
  std::int64_t free = 0;
  std::vector<int> inside;  // events strictly between the acquire loop and the unlock
};

class SpinLocks {
 public:
  /// `pair(a, b)`: the model's verdict on two conflicting accesses (PairOracle).
  SpinLocks(const model::CatModel& model, const KernelGraph& kernel, KernelValues& values,
            std::function<const PairVerdict&(int, int)> pair);

  /// Whether a and b (accesses of one address by different threads) are both inside critical sections of one lock
  /// whose every hand-off orders: then they are in causality order whenever both happen.
  bool ordered(int a, int b);
  /// The race kind when a and b are inside critical sections of one lock, a hand-off does not order, and the
  /// canonical execution of the hand-off between their two threads (consistent by the model's checks) has them
  /// race: the witness is the launch execution in which these two threads take the lock first, one after the
  /// other, and the others after them.
  std::optional<std::string> race(int a, int b);
  /// When write `w` is a counter update of a lock (the header's Counters rule): the constant it adds.
  std::optional<std::int64_t> increment(int w);
  /// Whether loop `loop` of `thread` is the acquire loop of a lock whose every acquire loop ends (the header's
  /// Liveness rule).
  bool acquireEnds(int thread, int loop);
  /// The lock regions found, per lock word (physical location); for tests and reports.
  const std::map<int, std::vector<LockRegion>>& locks() const { return locks_; }

 private:
  void recognise();
  std::optional<LockRegion> region(int thread, int loop, int& paddr) const;
  bool validLock(int paddr, const std::vector<LockRegion>& regions);
  bool handOffOrders(const LockRegion& h, int hAcquire, const LockRegion& n, int nAcquire);
  /// Builds the canonical execution of the hand-off h -> n (the header's) and evaluates the model on it.
  void evaluateHandOff(const LockRegion& h, int hAcquire, const LockRegion& n, int nAcquire,
                       const std::function<void(const Execution&, model::Evaluator&)>& use) const;
  bool lockOrders(int paddr);
  const LockRegion* regionOf(int e, int& paddr) const;

  const model::CatModel& model_;
  const KernelGraph& k_;
  KernelValues& values_;
  std::function<const PairVerdict&(int, int)> pair_;
  std::map<int, std::vector<LockRegion>> locks_;       // lock word -> its regions
  std::map<int, bool> orders_;                          // lock word -> every hand-off orders
  std::map<std::string, bool> handOffs_;                // hand-off signature -> orders
  std::map<int, std::optional<std::int64_t>> increments_;
};

}  // namespace ptxmm::checker::kernel
