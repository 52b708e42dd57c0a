// Running the threads of one CTA together where they must meet: each thread is evaluated on its own until it
// finishes or waits at a warp collective (shfl.sync, vote.sync, match.sync, redux.sync, elect.sync, activemask)
// or bar.red; the results are then computed from the waiting lanes' values and the threads resume.
//
// Choices (PTX leaves some of these open): the lanes of a collective are the ones its member mask names, which
// must all wait at the same instruction with the same mask (lanes that exited are left out); values must be
// concrete — a value read from memory some thread writes is a located "not supported yet" error (in the first,
// discovering pass such results are only opaque); a source lane outside the mask or exited gives an opaque
// value. A shuffled value that is not concrete is opaque but keeps its ticket term (TicketTerm.hpp): the lanes
// that receive it hold the source lane's runtime value (this adds no memory event and no ordering, as shfl.sync
// has none); elect.sync elects the lowest lane of the mask (deterministic, as PTX requires; real GPUs do the same);
// activemask is opaque (which lanes are converged is the hardware's choice); bar.red needs every thread of the
// CTA that has not exited, and its result is opaque when some predicate is not concrete.
#pragma once

#include <vector>

#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {

/// Evaluates every thread of one CTA (in order, warps of 32 consecutive threads) to completion. Throws
/// model::UserError for collectives whose lanes do not meet or whose values are not concrete (Emit pass).
void runCta(std::vector<ThreadEvaluator>& threads, Pass pass);

}  // namespace ptxmm::frontend::ptx
