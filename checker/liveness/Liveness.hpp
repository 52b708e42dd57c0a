// The liveness check (issue 13): does some execution of a test get stuck forever under a progress model? A stuck
// execution is a consistent execution of the memory model in which every thread has exited, is blocked for good
// (at a barrier whose generation cannot complete: not enough threads reach it, they reach it with other ids or
// counts; at a blocking read whose condition fails), spins forever in an unobservable loop iteration, or — where
// the progress model does not promise to schedule it — is simply never scheduled again; at least one thread is
// blocked or spinning. As in Dat3M's non-termination check it must be fair: the progress model admits the
// schedule (ProgressModel.hpp), and every read of a repeated iteration or blocking read reads a co-maximal write
// among those the model makes eventually visible to it (memory fairness: a polling read eventually sees the
// co-latest write in its scope, so a spin loop is stuck exactly when its
// exit condition fails on the final values it polls and no thread that still runs can change them). An aligned
// barrier completed only because a thread exited was reached from divergent code: reported too (undefined
// behaviour). A loop that needs more iterations than the unrolling bound in a candidate stuck execution makes the
// verdict UNKNOWN, never "terminates".
//
// This is the API the kernel checker reuses on litmus-sized slices: one function over (model, graph, options).
#pragma once

#include "checker/Engine.hpp"
#include "checker/liveness/LivenessResult.hpp"
#include "checker/liveness/ProgressModel.hpp"

namespace ptxmm::checker::liveness {

struct LivenessOptions {
  ProgressModel progress;
  EngineOptions limits;  // timeoutSeconds and maxCandidates bound the search (UNKNOWN when reached)
};

/// The cat definition (a relation from writes to reads) naming which writes a poll eventually sees; where the
/// model does not define it, every write is eventually visible to every read.
inline constexpr const char* kEventuallyVisible = "eventually-visible";

/// Decides the liveness of the unrolled program `graph` under `model` with the explicit search.
LivenessResult checkLiveness(const model::CatModel& model, const model::EventGraph& graph, const LivenessOptions& options);

/// Whether `graph` has anything that can wait: a barrier wait half, a loop, or a blocking read. Without any,
/// every execution terminates and the check is not needed.
bool canWait(const model::EventGraph& graph);

}  // namespace ptxmm::checker::liveness
