// Distributed shared memory against the lifetime of its owner (spec §4.1): a thread may access the shared memory
// of another CTA of its cluster (ld/st/atom/red .shared::cluster on a peer address, st.async or red.async into a
// peer, a remote mbarrier arrive, a bulk copy to or from a peer's window) only while that CTA is alive; once the CTA
// has exited, its shared memory is undefined, and the memory model has no rule for the access. An access is shown
// safe when every thread q of the owning CTA has an event that happens in every execution in which q exits (on
// every path of q to its end, outside loops, not conditional on a compare; a q that blocks for ever never exits)
// and that the access is ordered before whenever both happen: q then exits after it. Usually that is a cluster
// barrier after the access that every thread of the owner waits on, or the owner's successful mbarrier wait on the
// phase the access completes. A missing proof is not a race (the exit is not shown to come first either): the
// caller reports it UNKNOWN. Accesses are grouped by source line and owning CTA, one gap per group, and each thread
// q stops at its first proof, latest events first (the trailing barrier), so big launches stay cheap.
#pragma once

#include <functional>
#include <map>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

class PeerLifetimes {
 public:
  /// `before(a, e)`: a is ordered before e whenever both happen.
  PeerLifetimes(const KernelGraph& kernel, const BarrierPhases& phases, std::function<bool(int, int)> before);

  /// An access to a peer's shared memory not shown to happen before the owner's exit: the access event and a thread
  /// of the owning CTA whose exit it may follow.
  struct Gap {
    int access = -1;
    int ownerThread = -1;
  };
  /// One gap per source line of the accessing instruction and owning CTA.
  std::vector<Gap> gaps();

 private:
  // Whether access `a` is ordered before an event that thread q performs whenever it exits.
  bool beforeExitOf(int a, int q);
  // The events of thread q that happen in every execution in which q exits, latest first (once per thread).
  const std::vector<int>& sureEvents(int q);

  const KernelGraph& k_;
  const BarrierPhases& phases_;
  std::function<bool(int, int)> before_;
  std::map<int, std::vector<int>> sureEvents_;
};

}  // namespace ptxmm::checker::kernel
