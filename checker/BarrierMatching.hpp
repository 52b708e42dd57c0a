// Barrier generations for the explicit engine: every way the arrivals of one candidate execution can form
// generations under the rules of BarrierRules.hpp (which the Z3 encoding states as constraints), with the
// `syncbar` relation each gives (arrive half -> wait halves of other threads of the same complete generation).
// Arrivals must be given in program order per thread. A wait half that runs must be in a complete generation, a
// thread blocked at a wait in an incomplete one; arrangements that break this are not produced, so a barrier
// deadlock leaves no terminating execution and shows as a stuck one (checker/liveness).
#pragma once

#include <optional>
#include <vector>

#include "checker/BarrierRules.hpp"
#include "model/BitMatrix.hpp"

namespace ptxmm::checker {

struct Arrival {
  std::size_t arrive;                // candidate index of the arrive half
  std::optional<std::size_t> wait;   // the wait half of the same instruction, when it runs
  bool blocked = false;              // the instruction waits, but its thread stops before the wait half
  int thread = 0;
  BarrierClass cls;
  std::int64_t id = 0;
  std::optional<std::int64_t> size;  // the evaluated count (Counted) or quorum (Quorum)
  bool aligned = false;
};

/// What the generations of one execution rest on beyond its arrivals.
struct BarrierContext {
  std::vector<bool> exited;             // per thread: its path ends, so it released All-kind barriers
  const std::vector<StaticUse>* uses;   // staticUses(graph)
  const model::EventGraph* graph;       // for the threads a count counts
};

/// A generation completed only because `thread` exited without arriving, at an aligned barrier: undefined
/// behaviour (divergent code reached the barrier).
struct DivergentRelease {
  std::size_t arrival;  // index in the arrivals of one arrival of the generation
  int thread;           // the user that exited
};

struct BarrierMatching {
  model::BitMatrix syncbar;
  std::vector<DivergentRelease> divergent;
};

/// Every arrangement of `arrivals` into generations over n candidate events; empty when none exists.
std::vector<BarrierMatching> barrierMatchings(const std::vector<Arrival>& arrivals, const BarrierContext& context,
                                              std::size_t n);

}  // namespace ptxmm::checker
