// The liveness check of the Z3 engine: the same question as checker/liveness/Liveness.hpp (does a fair stuck
// execution exist under the progress model?) asked of the solver over ProgramEncoding's liveness mode, so the two
// engines decide liveness independently and `ptxmm diff` / `fuzz-diff` can compare them. Like the explicit search
// it lists every stuck pattern (up to a cap), each in the same words (liveness/HangText.hpp).
#pragma once

#include "checker/liveness/Liveness.hpp"

namespace ptxmm::checker::z3enc {

/// Decides the liveness of `graph` under `model` with Z3.
liveness::LivenessResult checkLiveness(const model::CatModel& model, const model::EventGraph& graph,
                                       const liveness::LivenessOptions& options);

}  // namespace ptxmm::checker::z3enc
