// Whether the residual loops of a launch (spin waits: a flag poll, an mbarrier try_wait, a lock's compare-and-
// swap) always end, under the fair progress model (issue 13's default: every thread that can move does, and a
// write is eventually visible to a read that keeps polling it).
//
// The argument, per loop L of thread T that polls locations P (the locations its iterations read):
//   * a slice holds every write to P except T's own from L on, closed as usual (SliceBuilder), with T cut before
//     L (what T does after L never happens while it spins; L's own polls may be cut when they only read or write
//     back what they read — atomicAdd(&f, 0), atomicCAS(f, 0, 0): SpinLoops.hpp); the engine lists the final
//     values of P over the slice's terminating executions;
//   * a static mbarrier (MbarrierPhases.hpp) needs no slice: its final value is the one after all its arrivals;
//   * an iteration of L is run on those final values, with T's registers as they are at L's head in EVERY
//     iteration (its entry values, joined to a fixpoint with what iterations that read any value leave there: a
//     register carried from one iteration to the next is unknown unless every iteration agrees on it):
//       - it leaves L in every final state: once the others are done (memory fairness makes their last writes
//         visible), T's next iteration leaves — L ends;
//       - it comes back to L's head in some final state, without writing: T may run only after everyone else is
//         done and then reads that state forever — a hang;
//       - the slice has no terminating execution at all: a thread T waits for never finishes — a hang.
// A retry loop needs no final values: it ends in EVERY execution in which its thread keeps running (lock-freedom:
// a compare-and-swap fails only because another thread's write came first). L is one when
//   * its iterations access one word x — one read, writes only to x — and fences: nothing that waits;
//   * a register carries the read's value to the next iteration, and a symbolic walk of one iteration shows: if
//     the read returns the value the previous iteration's read returned, no path comes back; a path that comes
//     back writes nothing;
//   * every write of x is in no loop or in such a loop, no loop is nested (so x is written finitely often), and
//     the writes of x and L's read are pairwise morally strong.
// Then iteration k+1 comes back only if its read returns another write than iteration k's, and SC per location
// (ptx-core.cat, spec §3.5) forbids T to read w, then w', then w again: T's reads step through the finitely many
// writes of x, each at most once. (`do { a = old; old = atomicCAS(p, a, f(a)); } while (a != old);`)
// Memory fairness is the model's `eventually-visible` (ptx-core.cat): a write reaches a poll that keeps reading
// only when the two are morally strong (or cross-proxy/mbarrier visible). When some write of P is not eventually
// visible to L's poll (a weak poll, a .cta poll of a flag another CTA writes), the final values prove nothing: L
// hangs when its poll may read P's initial values forever — no write of P is eventually visible to it, T writes
// none, nothing T does before it can order another thread's write before it (no acquire, fence, barrier, mbarrier
// or async wait), T reaches L reading P's initial values, and an iteration on them comes back — and is UNKNOWN,
// with the reason, otherwise.
// Nested loops (libcu++ waits: an outer poll loop around back-off loops that read the clock and nanosleep, and
// inner loops that re-poll the same word): each loop, inner ones too, is decided from its own head as above. A
// walk of one iteration follows the loops nested in it through their unrolled iterations and folds them past
// those (the last unrolled back edge returns to its header as one more path, a guess), so it covers any number
// of inner iterations and never claims a hang through the fold; an inner loop's
// head state is what the folded walk of the loop around it (from that loop's head state, reads unknown) has at
// the inner header, which holds at each of its entries. A branch on `register ==/!= constant` refines the
// register on each way it goes (`while (old != 0)` carries back a value known to differ from 0), so a wait that
// polls until the word differs from the value it carries is seen to end once the word holds its final value.
// A loop before L that can run past its unrolled iterations reaches L's entry with the registers it assigns
// unknown and the others kept (entryStates), so a later loop that does not depend on what it counts is decided.
// Anything else (the slice needs L's writes that change memory, registers that are not forced, an iteration that
// writes while it spins, an engine limit) is UNKNOWN, never "ends". Issue 13's liveness machinery will replace this
// argument where it is more precise (cycles of waits, other progress models).
#pragma once

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
#include "checker/kernel/MbarrierPhases.hpp"
#include "checker/kernel/PairOracle.hpp"
#include "checker/kernel/SliceBuilder.hpp"
#include "checker/kernel/SliceRunner.hpp"

namespace ptxmm::checker::kernel {

class LoopLiveness {
 public:
  /// `mbarriers` (optional) gives the final values of static mbarriers without a slice; `clusters` (optional) the
  /// cluster barrier generations a spinning thread holds back; `pair(a, b)`: what the
  /// model says of two conflicting accesses (PairOracle: `ms`, `eventually-visible`).
  LoopLiveness(const KernelGraph& kernel, const BarrierPhases& phases, KernelValues& values, const MbarrierPhases* mbarriers,
               const ClusterPhases* clusters, std::function<const PairVerdict&(int, int)> pair, SliceBuilder& builder, SliceRunner& runner, SliceLimits limits,
               std::function<double()> remaining);

  /// Loops `ends(thread, loop)` proves to end by another argument (spin locks, SpinLocks.hpp) are not judged here.
  void endsBy(std::function<bool(int, int)> ends) { endsBy_ = std::move(ends); }
  /// A loop left undecided that `spins(thread, loop)` shows never ends in some execution (a schedule's witness,
  /// named by what it returns) is a hang.
  void spinsBy(std::function<std::optional<std::string>(int, int)> spins) { spinsBy_ = std::move(spins); }
  /// Decides every loop of the launch: hangs are added to `hangs`, what stays undecided to `unknowns`, and the
  /// loops that always end, as (thread, loop), to `ends` when given.
  void check(std::vector<KernelHang>& hangs, std::vector<std::string>& unknowns, std::set<std::pair<int, int>>* ends = nullptr);

  using Known = std::optional<std::int64_t>;
  /// What the checker knows of a register or of a read's value: a constant, or a symbol — a value it does not know
  /// but can compare: the same symbol is the same value, two different symbols are different values.
  /// An unknown value may still be known to differ from one constant (`excluded`: a branch on it said so, as a
  /// wait loop's `while (old != 0)` says of the value it carries back). A branch learns that from a predicate that
  /// tests a register against a constant (test*), when the register still holds the value the test saw: `def`
  /// names the assignment a value comes from within one walk (-1: from before the walk).
  struct Val {
    Known known;
    int symbol = -1;
    Known excluded;
    int def = -1;
    int testReg = -1, testDef = -1;
    std::int64_t testValue = 0;
    bool testEq = false;
    Val() = default;
    Val(Known k) : known(k) {}  // NOLINT(google-explicit-constructor): a constant, or nothing, is a Val
    static Val of(int symbol) {
      Val v;
      v.symbol = symbol;
      return v;
    }
    /// The same value (what is known of it), whatever its provenance.
    bool same(const Val& o) const { return known == o.known && symbol == o.symbol && excluded == o.excluded; }
    bool operator==(const Val& o) const {
      return std::tie(known, symbol, excluded, def, testReg, testDef, testValue, testEq) ==
             std::tie(o.known, o.symbol, o.excluded, o.def, o.testReg, o.testDef, o.testValue, o.testEq);
    }
    bool operator<(const Val& o) const {
      return std::tie(known, symbol, excluded, def, testReg, testDef, testValue, testEq) <
             std::tie(o.known, o.symbol, o.excluded, o.def, o.testReg, o.testDef, o.testValue, o.testEq);
    }
  };
  using Regs = std::vector<Val>;
  using Reads = std::function<Val(int)>;

 private:
  enum class Verdict : std::uint8_t { Ends, Hangs, Unknown };
  struct Outcome {
    Verdict verdict = Verdict::Unknown;
    std::string detail;
  };
  struct Return {  // a path of one iteration that comes back to the loop's head
    Regs regs;
    bool guessed;  // some branch on the way had an unknown condition
    bool wrote;
    bool changed;  // wrote something other than what an RMW read (SpinLoops.hpp: unchanging writes are awaits)
    bool operator==(const Return& o) const {
      return regs == o.regs && guessed == o.guessed && wrote == o.wrote && changed == o.changed;
    }
  };

  struct Flow {
    std::map<int, Return> at;  // node of the iteration -> what every path to it agrees on
    std::vector<Return> back;  // the paths that come back to the loop's head
  };

  Outcome checkLoop(int thread, int loop);
  std::vector<Regs> entryStates(int thread, int header, std::string& why, const Reads& read) const;
  struct PastBound {
    std::vector<int> changed;  // registers some iteration of the loop assigns
    std::vector<int> exits;    // nodes outside the loop that iteration `iteration` branches to
  };
  /// What a path that runs loop `loop` beyond its unrolled iterations (the last unrolled one is `iteration`)
  /// leaves it with: which registers may differ, and where it goes.
  PastBound pastBound(int thread, int loop, int iteration) const;
  /// Per node of the thread: which registers' values before it may still be read.
  const std::vector<std::vector<bool>>& liveBefore(int thread) const;
  /// The register states at the first header of loop `loop` nested in another loop: what they are there in any
  /// iteration of the enclosing loops (empty with `why` set when that is not known).
  std::vector<Regs> nestedEntries(int thread, int loop, const Reads& read, std::string& why) const;
  Outcome iterate(int thread, int loop, int header, const Regs& regs, const Reads& finalValue) const;
  /// One iteration of the loop from its head (inner loops folded), or nullopt where control cannot be followed.
  std::optional<Flow> flow(int thread, int loop, int header, const Regs& regs, const Reads& read) const;
  /// The paths of one iteration that come back (flow's `back`).
  std::optional<std::vector<Return>> walkIteration(int thread, int loop, int header, const Regs& regs, const Reads& read) const;
  /// Whether loop `inner` lies inside loop `outer` (a different loop).
  bool nestedIn(int thread, int inner, int outer) const;
  /// The header node of the iteration of loop `loop` that node `node` (inside it) belongs to.
  int iterationHeader(int thread, int node, int loop) const;
  /// The innermost loop that loop `loop` is nested in, or -1.
  int parentLoop(int thread, int loop) const;
  /// What the registers hold at the loop's head in every iteration, from their values on entry.
  std::optional<Regs> headState(int thread, int loop, int header, Regs regs) const;
  /// Why T's kept instructions `kept` (kernel instruction indices, in a slice) from loop l on stop the slice from
  /// standing for the others once T spins in l; "" when they are all reads or unchanging RMW polls of l.
  std::string pollsOnly(int thread, int loop, const std::vector<int>& kept) const;
  /// Drops slice thread `s`'s instructions from kernel instruction `from` on (its polls, pollsOnly).
  static void cutBefore(Slice& slice, std::size_t s, int from);
  /// While thread t spins before its instruction `from`, the first instruction of thread u that blocks for ever: a
  /// wait at a CTA or cluster barrier generation t would arrive at only from `from` on (BarrierPhases, ClusterPhases
  /// ::blockedBy); `dynamic` is set when a barrier they share has no static generations.
  std::optional<int> heldBackAt(int t, int from, int u, bool& dynamic) const;
  /// A kept thread of the slice (not T) that reads what T writes from node `header` on, which the cut slice
  /// never does ("" when none): it may wait for T, so a slice without terminating executions proves no hang.
  std::string waitsOnCut(const Slice& slice, int thread, int header) const;
  /// The verdict when a write the loop may wait for is not eventually visible to its poll (memory fairness does
  /// not help): a hang when the poll can read the initial values forever, else UNKNOWN with the reason.
  Outcome blindPoll(int thread, int loop, int header, const std::vector<int>& seeds, const std::string& unseen);
  /// The loop's first header node (iteration 0), or -1.
  int firstHeader(int thread, int loop) const;
  /// Whether loop `loop` is a retry loop (see the header comment) as far as its own iterations go; memoised.
  bool retries(int thread, int loop);
  /// Whether loop `loop` ends in every execution as a retry loop: its own iterations retry, and the word it reads
  /// is written finitely often, by writes that are pairwise ms with each other and with its read.
  bool endsAsRetry(int thread, int loop);

  const KernelGraph& k_;
  const BarrierPhases& phases_;
  KernelValues& values_;
  const MbarrierPhases* mbarriers_;
  const ClusterPhases* clusters_;
  SliceBuilder& builder_;
  SliceRunner& runner_;
  SliceLimits limits_;
  std::function<double()> remaining_;
  std::function<const PairVerdict&(int, int)> pair_;
  std::map<std::pair<int, int>, bool> retries_;  // (thread, loop) -> retries()
  std::function<bool(int, int)> endsBy_;
  std::function<std::optional<std::string>(int, int)> spinsBy_;
  mutable int liveThread_ = -1;                   // the thread live_ is for (liveBefore)
  mutable std::vector<std::vector<bool>> live_;
};

}  // namespace ptxmm::checker::kernel
