// Allowed siblings of a forbidden test. Not seeing a forbidden outcome means little unless the same harness,
// on the same test with its synchronisation weakened, does see the weak outcome. The candidates weaken one
// synchronisation at a time, strongest first (SC fences, CTA barriers, acq_rel fences, release/acquire
// fences, release/acquire accesses), then all of them at once; the validator keeps the first candidate whose
// weak outcome the model allows.
#pragma once

#include <string>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::validate {

struct SiblingCandidate {
  frontend::Program program;  // named "<test>~sibling"
  std::string change;         // what was weakened, e.g. "P0 line 7: st.release.gpu y, 1 -> st.relaxed.gpu y, 1"
};

/// The candidates, strongest synchronisation weakened first; empty when the test has nothing to weaken.
std::vector<SiblingCandidate> siblingCandidates(const frontend::Program& program);

}  // namespace ptxmm::validate
