// Barrier generations for the explicit engine [§2.8, §4.4, A20]: which arrivals of a CTA barrier complete
// together. A barrier is identified by (domain, id, thread count), the domain being the CTA (bar.sync/arrive) or
// the warp (bar.warp.sync, whose id is its member mask); litmus threads stand for warps (arrival is per
// warp). With a thread count that is a positive multiple of the warp size, a generation is any count/32
// arrivals of distinct threads, in each thread's program order. Otherwise (no count — "all threads of the
// CTA" — or the corpus's small counts that only label the barrier) the participants are the threads of the
// CTA that arrive at that barrier, and generation k holds each participant's k-th arrival.
// An incomplete last generation is allowed only if none of its arrivals waits (bar.arrive); a waiting one
// would block forever, and a thread arriving twice before completion is undefined: such executions are not
// produced.
#pragma once

#include <optional>
#include <vector>

#include "model/BitMatrix.hpp"

namespace ptxmm::checker {

struct Arrival {
  std::size_t arrive;                  // candidate index of the arrive half
  std::optional<std::size_t> wait;     // candidate index of the wait half of the same instruction (bar.sync)
  int thread;
  int domain;                          // EventGraph::barrierDomain
  std::int64_t id;
  std::optional<std::int64_t> count;
};

/// Every possible `syncbar` relation (arrive half -> wait halves of other threads of the same generation)
/// over n candidate events. Arrivals must be given in program order per thread. Empty when no
/// assignment of generations lets every waiting arrival complete.
std::vector<model::BitMatrix> barrierMatchings(const std::vector<Arrival>& arrivals, std::size_t n);

}  // namespace ptxmm::checker
