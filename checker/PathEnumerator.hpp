// Control-flow paths of one thread of an EventGraph, executed symbolically: read values stay unknowns, so a
// path records what it assumed about them (branch outcomes, compare-and-swap outcomes) and gives every write
// value, barrier operand and final register as a term over reads. The explicit engine combines one path per
// thread with a reads-from choice and keeps the combinations whose assumptions hold.
//
// Spin loops are awaits (SpinLoops.hpp): a path containing an unobservable loop iteration is not produced — the
// path without that iteration yields the same final state. A path that needs one more iteration than the unrolling bound after an observable iteration
// is produced with `boundLoop` set: the engine reports UNKNOWN if it belongs to a consistent execution.
#pragma once

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

struct ThreadPath {
  std::vector<int> events;  // executed events, in program order
  std::vector<PathAssumption> assumptions;
  std::vector<std::pair<int, model::ValuePtr>> writeValues;  // write event -> value written
  std::vector<PathBarrier> barriers;
  std::vector<model::ValuePtr> finalRegisters;  // per register of the thread
  std::vector<std::pair<int, int>> data;  // (read, event): the read's value flows into the event's value
  std::vector<std::pair<int, int>> ctrl;  // (read, event): the read decides whether the event happens
  int boundLoop = -1;                     // >= 0: the path ran into the unrolling bound of this loop
};

/// Every path of thread `thread` (at least one; a thread without code has one empty path).
std::vector<ThreadPath> enumeratePaths(const model::EventGraph& graph, int thread);

}  // namespace ptxmm::checker
