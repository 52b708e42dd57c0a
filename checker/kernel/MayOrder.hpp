// The may-order graph of a launch: an over-approximation of causality order (spec §2.9-§2.11) built from base
// relations only, so that "no path from a to b and none from b to a" means no execution orders the two events.
// `cause` is made of po, morally strong reads-from chains through atomics (obs), the synchronizes-with rules
// (release/acquire patterns over obs, CTA barriers, Fence-SC, cluster barriers) and the asynchronous order
// (iss, aint, adone); every one of those is covered by an edge here:
//   * po, as the order of each thread's synchronising events (event ids follow a topological order of the thread);
//   * every strong write -> every strong read of its location (through one hub node per location: may-rf); a
//     read that cannot end an acquire pattern (spec §2.5: not .acquire, no acquire fence after it in its thread)
//     ends no synchronizes-with edge, so in a path through `sw` it only passes the chain on to its own atomic
//     write half (obs through rmw) — "passive". Symmetrically, a write starts a synchronizes-with edge only as
//     the write of a release pattern, whose head (a release write, or a release/acq_rel/sc fence, restricted ones
//     included) is in its thread at or before it: a search that enters a thread at some position follows the
//     reads-from edges of that thread's writes (and RMW reads) only from the first release head at or after that
//     position on — "gated" (the relaxed arrive with nothing before it publishes nothing). One rule is an
//     exception to both: `cause` also contains `obs ; ppbc`, where the first step is reads-from alone, from the
//     write a itself, and ppbc relates the read to later events of the SAME location (C1-C9 need loc). So a
//     search from a strong write a, asked about an event overlapping a's location, follows a's own reads-from
//     edges and treats the strong reads of that location as active (`observed` searches below);
//   * every barrier arrive -> every wait of the same barrier and generation (CTA barriers and barrier.cluster;
//     one hub per generation when the generations are static, one for all of them otherwise; a cluster
//     barrier's generation k also leads to generation k+1, its arrivals being one RMW chain);
//   * every fence.sc -> every fence.sc (one hub: the Fence-SC order);
//   * iss (everything po-before an asynchronous operation's issue -> its accesses), aint, adone.
// Weak accesses of other threads never take part in ordering (obs needs morally strong reads-from), so only
// synchronising events are nodes; a weak access enters the graph at its thread's next synchronising event.
// Hubs keep the graph linear in the number of events; a query is a graph search whose result (the position
// reached in every thread) is kept for the next queries from the same event.
//
// This is a consequence of the bundled model's definitions, not of the model as data: it is pinned by
// tests/unit/checker/kernel/MayOrderTest.cpp against the engines and must not be used with a user --model.
#pragma once

#include <list>
#include <map>
#include <set>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

class MayOrder {
 public:
  /// `phases` (optional) says which CTA barriers have static generations; without it, only the shape decides.
  explicit MayOrder(const KernelGraph& kernel, const BarrierPhases* phases = nullptr);

  /// Whether a path of the graph may lead from event a to event b (a != b, different threads or asynchronous):
  /// false means no execution relates a to b by `cause`.
  bool reaches(int a, int b);
  /// The synchronising events on some path from a to b (empty when b is not reachable from a).
  std::vector<int> between(int a, int b);

 private:
  // What a search reached: per thread, the first (forward) or last (backward) position of its po chain, and
  // the asynchronous events and hubs it visited.
  struct Reach {
    std::vector<int> pos;
    std::vector<bool> visited;  // per node (asynchronous events and hubs)
  };
  struct Node {
    std::vector<int> out, in;  // node edges (nodes are asynchronous events, then hubs)
  };

  bool inPo(int e) const;
  bool synchronising(int e) const;
  // Whether node v's reads-from edges need a release head before it in its thread (a strong write with a
  // location hub, or the read half of an RMW).
  bool gated(int v) const { return gated_.count(v) > 0; }
  // The last release head of thread t at or before event e (-1: none).
  int headBefore(int t, int e) const;
  // Whether node v is passive in a search in which the strong reads of physical location `active` are not
  // (-1: none).
  bool passive(int v, std::int64_t active) const;
  // The physical location an `obs ; ppbc` path from a to b would run through: a's, when a is a strong write and
  // b overlaps it; -1 otherwise.
  std::int64_t observedLocation(int a, int b) const;
  int nodeOf(int e) const { return nodeOfEvent_[static_cast<std::size_t>(e)]; }
  int hub(std::map<std::int64_t, int>& hubs, std::int64_t key);
  using Generations = std::map<int, std::pair<std::string, int>>;  // barrier event -> (barrier, generation)
  Generations barrierGenerations(const BarrierPhases* phases) const;
  int barrierHub(int e, const Generations& generations);
  void edge(int from, int to);
  const Reach& forward(int a, std::int64_t active);
  Reach backward(int b, std::int64_t active);
  void search(Reach& r, bool forwardDirection, std::int64_t active, std::vector<int> threadsToVisit, std::vector<int> nodes);

  const KernelGraph& k_;
  std::vector<std::vector<int>> chain_;          // per thread: its synchronising po events, by id
  std::vector<std::vector<std::pair<int, int>>> issued_;  // per thread: (issue threshold, async node)
  std::vector<int> nodeOfEvent_;                 // event -> node, -1 for po events without node edges
  std::vector<std::vector<int>> eventOut_, eventIn_;  // per po event: nodes it leads to / comes from
  std::vector<Node> nodes_;
  std::vector<int> nodeEvent_;                   // node -> event (-1 for hubs)
  std::vector<int> threshold_;                   // async node -> the last event id po-before its issue (-1: none)
  std::map<std::int64_t, int> locationHubs_, fenceHub_;
  std::map<std::string, int> barrierHubs_;  // per barrier and generation
  std::set<int> passive_;  // nodes of po events that reads-from reaches without ordering what follows them
  std::set<int> gated_;    // nodes of po events whose reads-from edges need a release head (gated())
  std::vector<std::vector<int>> heads_;  // per thread: its release heads (spec §2.5 rp1-rp3 heads), by id
  std::list<std::pair<std::pair<int, std::int64_t>, Reach>> cache_;  // forward searches (from, active), most recent first
};

}  // namespace ptxmm::checker::kernel
