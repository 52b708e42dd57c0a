// The unroller: turns a parsed Program into the EventGraph both engines consume. It decides what each
// instruction means as events (tags, values, barrier operands), maps location names to virtual addresses and
// physical locations, numbers the scope tree, and unrolls loops up to a bound: an execution that needs one
// more iteration reaches an Edge::kBound, which the engines report (UNKNOWN) instead of dropping silently.
#pragma once

#include <set>
#include <string>
#include <utility>

#include "frontend/Program.hpp"
#include "model/Deadline.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::frontend {

struct UnrollOptions {
  /// `{bound}` alone: no deadline, no event bound.
  UnrollOptions(int bound = 2, model::Deadline deadline = {}, std::size_t maxEvents = 0)
      : bound(bound), deadline(deadline), maxEvents(maxEvents) {}

  int bound;                  // iterations of each loop per execution
  model::Deadline deadline;   // --timeout: unrolling stops here
  std::size_t maxEvents;      // --max-events: unrolling stops past this many events (0: no limit)
};

/// Unrolls a program into events. Throws model::UserError for control flow it cannot unroll (overlapping
/// loops, jumps into a loop body) and for inconsistent placements, model::LimitReached when the deadline passes
/// or the events exceed maxEvents (checked as it goes, before memory grows).
model::EventGraph unroll(const Program& program, const UnrollOptions& options);

/// The registers a program observes at the end (condition, filter and `locations`), as (thread, register name).
std::set<std::pair<int, std::string>> observedRegisters(const Program& program);

}  // namespace ptxmm::frontend
