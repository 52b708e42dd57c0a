// Static structure of barrier.cluster (spec §2.8 rule 3, §4.3, reading A9): in a cluster whose participating
// threads (those that arrive at all) each execute `arrive; wait` pairs, unconditionally, outside loops and the
// same number of times, generation k of the cluster barrier is every participant's k-th arrival. The barrier is an
// RMW chain on the cluster's barrier location and a wait of generation j returns only once the count reaches
// participants*(j+1): no thread arrives a (j+2)-th time before passing its own wait of generation j, so that count
// is reached exactly when every participant has arrived j+1 times. The arrivals before it are then in
// observation order before the wait (rmw chain, spec §2.6), and a release pattern ending at an arrival
// synchronises with the (acquire) wait when its head and the wait are morally strong (sw_ra): what is po-before
// the head of a release pattern of generation k is ordered before what is po-after any other participant's wait
// of a generation j >= k. Heads (spec §2.5, §4.10): a release arrival itself (rp1); a release fence between the
// event and a relaxed arrival on every path of its thread through the event (rp3: `fence.acq_rel.cluster;
// barrier.cluster.arrive.relaxed`); a restricted release fence there for the events it covers (rel-restr:
// `fence.mbarrier_init.release.cluster` for the thread's mbarrier.init, `sync_restrict::shared::cta` for its
// .shared::cta accesses).
// What it does not model: barrier.cluster.wait waits for every NON-EXITED thread of the cluster (§4.3), and a
// thread that never arrives releases the barrier only by exiting; the unrolled barrier counts only the threads
// that arrive at all. That is exact when such a thread surely exits (no loop, no wait), and a thread that may never
// exit — it waits for something a waiter does after its wait — is an exit gap: the waits are not judged.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

class ClusterPhases {
 public:
  /// `morallyStrong(a, b)`: the model's `ms` for an arrival's write (or a fence) and a wait's read.
  ClusterPhases(const KernelGraph& kernel, std::function<bool(int, int)> morallyStrong);

  /// Whether the cluster barrier puts a before b whenever both happen (different threads of one cluster; b may be an
  /// asynchronous access, at its issue: the caller admits only those issue order puts after their instruction).
  bool ordered(int a, int b) const;
  /// Whether the cluster barrier puts a before the end of `wait`, a wait event of another thread of a's cluster
  /// (what ordered() gives for the events after it): the wait itself may be the last thing its thread does.
  bool beforeWait(int a, int wait) const;
  /// Whether the cluster of thread `thread` has a static cluster barrier.
  bool isStatic(int thread) const;
  /// The arrival write event of generation `generation` of each participant of `thread`'s cluster (static only).
  std::vector<int> arrivals(int thread, int generation) const;
  /// The generation a wait event of a static cluster barrier belongs to (-1: not one).
  int waitGeneration(int e) const;
  /// When thread `t` stops before its instruction `from` (it spins there for ever), u's first wait (an instruction
  /// index) at a generation t arrives at only from `from` on, which then never completes; nullopt when u never waits
  /// for t's later arrivals. `dynamic` is set when their cluster's barrier is not static.
  std::optional<int> blockedBy(int t, int from, int u, bool& dynamic) const;
  /// Why some cluster's waits are not judged, one reason per cluster: threads that never arrive at the barrier the
  /// cluster waits on and may never exit (a loop or a wait), so whether they release it is not known.
  std::vector<std::string> exitGaps() const;

 private:
  struct Sequence {
    std::vector<int> arrives, waits;  // arrival write events and wait events, in program order
  };
  struct Cluster {
    std::map<int, Sequence> threads;  // participants
    bool isStatic = true;
  };

  // The barrier sequences of a's and b's threads when both take part in one static cluster barrier (a not
  // asynchronous); null otherwise.
  std::pair<const Sequence*, const Sequence*> sequences(int a, int b) const;
  // Whether one of the first `generations` arrivals of sa after a ends a release pattern covering a that is morally
  // strong with `wait`.
  bool releasedBefore(const Sequence& sa, int a, std::size_t generations, int wait) const;
  // Whether a release pattern ending at arrival `arrive` of a's thread has a head po-after a (or at it) that is
  // morally strong with wait `wait`.
  bool released(int a, int arrive, int wait) const;
  // Whether fence f heads a release pattern that covers event a.
  bool covers(int f, int a) const;

  const KernelGraph& k_;
  std::function<bool(int, int)> morallyStrong_;
  std::map<int, Cluster> clusters_;
  mutable std::map<std::tuple<int, int, int>, bool> released_;  // memo of released()
};

}  // namespace ptxmm::checker::kernel
