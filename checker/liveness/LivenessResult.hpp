// What the liveness check says about a test (issue 13): whether every execution terminates under a progress
// model, and if not, each way it gets stuck — the threads, what each waits at (file:line) and why. Printed as
// `Hang` lines and as the JSON object `liveness` (checker/ResultPrinter.hpp); suites compare `terminates` with
// Dat3M-style liveness expectations.
#pragma once

#include <string>
#include <vector>

#include "model/Diagnostic.hpp"

namespace ptxmm::checker::liveness {

/// One thread's part in a stuck execution.
struct StuckThread {
  std::string thread;       // "P0"
  std::string how;          // barrier | spin | await | not-scheduled | exited (a divergent barrier's releaser)
  std::string instruction;  // as written; empty for a thread never scheduled
  model::SourcePos pos;
  std::string detail;       // what it waits for, in words
};

/// One pattern of stuck threads.
struct Hang {
  // barrier: threads blocked at CTA barriers; spin: loops that read their non-exit values forever; mbarrier: such
  // loops polling an mbarrier; cluster-barrier: barrier.cluster.wait never satisfied; mixed: a cycle of waits of
  // several kinds; divergent-barrier: an aligned barrier completed only because threads exited (undefined).
  std::string kind;
  std::vector<StuckThread> threads;
};

struct LivenessResult {
  bool decided = true;      // false: UNKNOWN, see reason
  bool terminates = true;   // every execution terminates (when decided, or when no hang was found so far)
  std::string model;        // the progress model assumed ("fair")
  std::vector<Hang> hangs;  // empty when it terminates
  std::string reason;       // why it is not decided
  bool resourceLimit = false;  // not decided because a timeout or a size limit stopped the search
  std::string method;       // which engine's search decided it ("explicit", "z3")
};

}  // namespace ptxmm::checker::liveness
