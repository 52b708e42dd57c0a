// Allowed siblings of a forbidden test. Not seeing a forbidden outcome means little unless the same harness,
// on the same test with its synchronisation weakened, does see the weak outcome. The cases name their own
// broken siblings in their descriptions; otherwise the candidates weaken one synchronisation at a time,
// strongest first (SC fences, CTA barriers, acq_rel fences, release/acquire, proxy and restricted fences and
// completion waits, release/acquire accesses and mbarrier/cluster arrives and waits), then all of them at
// once; the validator keeps the first candidate whose weak outcome the model allows.
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

/// Whether a test's text (its description) names it a broken sibling of test `name` ("... broken sibling of
/// NAME: ..."): the hand-written weakenings of the cases. The whole name must match, not a prefix of a longer one.
bool namesSiblingOf(const std::string& text, const std::string& name);

}  // namespace ptxmm::validate
