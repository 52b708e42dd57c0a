// Counterexamples to claims on final memory at any launch size: a few directed sequentially consistent schedules
// of ALL threads of the launch (ascending or descending thread order, each thread until it blocks; round robin;
// one thread, warp or CTA delayed; seeded random walks), each read returning the latest write in the schedule and
// every barrier generation released only after all its arrivals. A schedule that runs every thread to its end is
// one complete execution of the launch, and one the PTX model permits (model/cat/ptx-core.cat, spec §2-§3):
// let S be the schedule's total order of events, co the order S gives each location's writes and sync_fence the
// order S gives the fence.sc. Then po, rf (latest write before the read), co and fr (a read precedes in S every
// write co-after the one it read) are all in S; syncbar is in S (arrivals before any release of their generation);
// rp and ap are made of po, obs of rf and rmw (the read and write halves of an RMW are adjacent in S), so sw and
// base causality bc = (po | sw)+ — and cause, made of bc, obs and the initial writes first — are in S. Every
// axiom then asks for the absence of a cycle (or a reflexive edge) in a union of relations inside the strict order
// S: Coherence and Coherence-ms (co is S on writes), FenceSC (sc is S on ms fence pairs), Atomicity (no write
// between an RMW's halves), NoThinAir (rf and the dependencies are in S), SC-per-location, Causality and
// Barrier-progress hold. This covers only what the argument covers: synchronous generic-proxy accesses of uniform
// size (one virtual address per location), fences, CTA and warp barriers, synchronous mbarrier operations; a
// launch with anything else (asynchronous copies and arrivals, cluster barriers, proxy fences, mixed sizes, aliases) is
// declined, and a schedule that reaches a value ptxmm does not compute, a division by zero, a deadlock or the step
// bound is dropped. No schedule proves a claim: a claim no schedule breaks stays undecided.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/kernel/KernelGraph.hpp"
#include "model/Deadline.hpp"

namespace ptxmm::checker::kernel {

/// What a schedule did, enough to rebuild it as a witness (WeakWitness.hpp). An executed event is named by its
/// thread and its position in the thread's `events`; thread -1 names the initial write of location `index`.
struct ScheduleTrace {
  using Occurrence = std::pair<int, int>;
  std::vector<std::vector<int>> events;                      // per thread, executed event ids in program order
  std::vector<std::vector<std::pair<int, int>>> quietSpins;  // per thread, [from, to) positions of loop iterations
                                                             // that went back to their head with no observable event
  std::map<Occurrence, Occurrence> rf;                       // read -> the write it read
  std::map<Occurrence, std::int64_t> values;                 // write -> the value it wrote
  std::vector<std::vector<Occurrence>> writes;               // per physical location, its writes in schedule order
  std::vector<Occurrence> scFences;                          // fence.sc in schedule order
  struct Arrival {
    Occurrence arrive;
    std::optional<Occurrence> wait;
  };
  std::vector<std::vector<Arrival>> generations;  // barrier generations, each with its arrivals
};

/// One complete execution of the launch found by a schedule.
struct ScheduledExecution {
  std::vector<std::int64_t> memory;  // the final value of each physical location
  std::string schedule;              // how the threads were scheduled, for the report
  ScheduleTrace trace;
  std::size_t plainReads = 0;  // reads that are not RMW halves or mbarrier reads, in the schedule
};

class ScheduleExplorer {
 public:
  /// Looks at the launch once; `unsupported()` then says whether its schedules are executions the model permits.
  explicit ScheduleExplorer(const KernelGraph& kernel);

  /// Why the launch is outside what the argument covers ("" when it is covered).
  const std::string& unsupported() const { return unsupported_; }
  /// The first complete execution, over the directed schedules in turn, whose final memory `wanted` accepts;
  /// nothing when none is (or the launch is unsupported, or `deadline` passes).
  std::optional<ScheduledExecution> find(const std::function<bool(const std::vector<std::int64_t>&)>& wanted,
                                         const model::Deadline& deadline) const;
  /// The final memory of one schedule (index below scheduleCount()), when it runs every thread to its end. With
  /// `staleRead` k >= 0, the k-th plain read of the schedule returns the write before the latest one of its
  /// location instead (not sequentially consistent: only a witness the model accepts may be reported).
  std::optional<ScheduledExecution> run(std::size_t schedule, const model::Deadline& deadline, int staleRead = -1) const;
  /// Loops some thread never leaves, as (thread, loop index) -> the schedule that shows it: a schedule that gets
  /// stuck — no thread can run, some have not exited — with the thread asleep in a spin (back at the loop's head
  /// with the registers of its last visit, no write having changed memory since). Its next iteration is then the
  /// same as the last (a node's effects are terms over the registers and the memory it reads), and so is every one
  /// after it: repeating it for ever extends the schedule to an infinite execution the model permits (the argument
  /// above; every thread that can run does — the others exited or wait at a barrier that cannot complete), in
  /// which the loop never ends. Loops with a barrier in their iteration are left out.
  std::map<std::pair<int, int>, std::string> spinsForever(const model::Deadline& deadline) const;
  /// How many directed schedules there are.
  std::size_t scheduleCount() const { return strategies_.size(); }

  struct Strategy {
    std::string name;
    std::vector<int> order;     // threads by priority
    bool roundRobin = false;    // one instruction per thread in turn (otherwise the first runnable runs)
    unsigned seed = 0;          // non-zero: a seeded random walk over the runnable threads
  };

 private:
  void checkSupported();
  void makeStrategies();

  const KernelGraph& k_;
  std::string unsupported_;
  std::vector<Strategy> strategies_;
  std::map<int, std::vector<int>> domainThreads_;  // per barrier domain (EventGraph::barrierDomain), its threads
};

}  // namespace ptxmm::checker::kernel
