// Barrier generations [§2.8, §4.4, A20]: which arrivals of a CTA barrier complete together. The rules below are
// the ones both engines follow: the explicit engine enumerates the generations (barrierMatchings), the Z3 engine
// constrains them (z3/ProgramEncoding), both grouping arrivals with byBarrier and sizing generations with
// countedGenerationSize. A barrier is identified by (domain, id, thread count), the domain being the CTA (bar.sync/arrive) or
// the warp (bar.warp.sync, whose id is its member mask); litmus threads stand for warps (arrival is per
// warp), kernel threads for themselves. With a thread count that is a positive multiple of the threads an
// arrival stands for (32 or 1), a generation is any count/32 (count) arrivals of distinct threads, in each
// thread's program order. Otherwise (no count — "all threads of the
// CTA" — or the corpus's small counts that only label the barrier) the participants are the threads of the
// CTA that arrive at that barrier, and generation k holds each participant's k-th arrival.
// An incomplete last generation is allowed only if none of its arrivals waits (bar.arrive); a waiting one
// would block forever, and a thread arriving twice before completion is undefined: such executions are not
// produced.
#pragma once

#include <map>
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

/// A barrier: arrivals complete together only within one domain, id and thread count.
struct BarrierKey {
  int domain;
  std::int64_t id;
  std::optional<std::int64_t> count;
  bool operator<(const BarrierKey& o) const;
};

/// The arrivals of each barrier, in the order given (both engines group arrivals this way).
std::map<BarrierKey, std::vector<const Arrival*>> byBarrier(const std::vector<Arrival>& arrivals);

/// How many arrivals a generation of `barrier` takes when its generations count arrivals (a thread count that is
/// a positive multiple of the threads an arrival stands for: count/32 for litmus threads, count for kernel
/// threads); nullopt when its generations go by participation instead (generation k holds each participating
/// thread's k-th arrival).
std::optional<std::size_t> countedGenerationSize(const BarrierKey& barrier, int threadsPerArrival = 32);

/// Every possible `syncbar` relation (arrive half -> wait halves of other threads of the same generation)
/// over n candidate events. Arrivals must be given in program order per thread; each stands for
/// `threadsPerArrival` threads of a thread count (32 for litmus threads, which stand for warps; 1 for kernel
/// threads). Empty when no assignment of generations lets every waiting arrival complete.
std::vector<model::BitMatrix> barrierMatchings(const std::vector<Arrival>& arrivals, std::size_t n, int threadsPerArrival = 32);

}  // namespace ptxmm::checker
