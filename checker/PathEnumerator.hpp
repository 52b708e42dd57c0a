// Control-flow paths of one thread of an EventGraph, executed symbolically: read values stay unknowns, so a
// path records what it assumed about them (branch outcomes, compare-and-swap outcomes) and gives every write
// value, barrier operand and final register as a term over reads. The explicit engine combines one path per
// thread with a reads-from choice and keeps the combinations whose assumptions hold.
//
// Spin loops are awaits (SpinLoops.hpp): a path containing an unobservable loop iteration is not produced — the
// path without that iteration yields the same final state. A path that needs one more iteration than the unrolling bound after an observable iteration
// is produced with `boundLoop` set: the engine reports UNKNOWN if it belongs to a consistent execution.
//
// For the liveness check (checker/liveness) the walk also yields the ways a thread can stop for good: blocked at
// a barrier's wait half, spinning in an unobservable loop iteration forever, waiting at a blocking read whose
// condition fails, or (under progress models that do not schedule every thread) simply not scheduled again
// after some node. Such paths carry how they end and which reads poll (memory fairness: they read the co-latest
// write once the thread is stuck).
#pragma once

#include <cstdint>
#include <vector>

#include "model/EventGraph.hpp"

namespace ptxmm::checker {

struct PathAssumption {
  model::ValuePtr term;  // over reads
  bool holds;            // the path assumes term != 0 (true) or term == 0 (false)
};

/// A barrier event's operands on one path, as terms over reads.
struct PathBarrier {
  int event;
  model::ValuePtr id;
  model::ValuePtr size;  // the count or the quorum; null when the instruction has neither
};

/// How a path ends: the thread exits, runs into the unrolling bound, or (liveness paths) stops for good.
enum class PathEnd : std::uint8_t {
  Exit,     // the end of the thread's code: it exited
  Bound,    // one more iteration than the unrolling bound (boundLoop)
  Barrier,  // blocked at the wait half of the barrier whose arrive half is `stuckEvent`
  Spin,     // repeats the unobservable iteration of loop `stuckLoop` (events from `stuckFrom` on) forever
  Await,    // blocked at the blocking read `stuckEvent` (barrier.cluster.wait) whose condition fails
  Stopped,  // not scheduled after its last event (progress models other than fair)
};

struct ThreadPath {
  std::vector<int> events;  // executed events, in program order
  std::vector<PathAssumption> assumptions;
  std::vector<std::pair<int, model::ValuePtr>> writeValues;  // write event -> value written
  std::vector<PathBarrier> barriers;
  std::vector<model::ValuePtr> finalRegisters;  // per register of the thread
  std::vector<std::pair<int, int>> data;  // (read, event): the read's value flows into the event's value
  std::vector<std::pair<int, int>> ctrl;  // (read, event): the read decides whether the event happens
  int boundLoop = -1;                     // >= 0: the path ran into the unrolling bound of this loop
  PathEnd end = PathEnd::Exit;
  int stuckEvent = -1;         // Barrier: the arrive half; Await: the blocking read
  int stuckLoop = -1;          // Spin: the loop
  std::size_t stuckFrom = 0;   // Spin: index in `events` where the repeated iteration starts
  std::vector<int> polls;      // Spin, Await: reads that read a co-maximal write (memory fairness)
  bool started = true;         // false only for the Stopped path that ends before the thread's first instruction
};

/// Which paths to produce besides those that exit or hit the bound.
struct PathOptions {
  bool stuck = false;    // also Barrier, Spin and Await paths
  bool stopped = false;  // also Stopped paths: every prefix ending at a node boundary (the empty one included)
};

/// Every path of thread `thread` (at least one; a thread without code has one empty path).
std::vector<ThreadPath> enumeratePaths(const model::EventGraph& graph, int thread, PathOptions options = {});

}  // namespace ptxmm::checker
