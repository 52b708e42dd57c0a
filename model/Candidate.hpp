// A candidate execution as the explicit evaluator sees it: n events numbered 0..n-1, the base sets (one per
// tag) and the base relations (one per BaseRel) as bit vectors and bit matrices. The explicit engine fills it
// stage by stage (static relations, then rf, barrier matching, the Fence-SC order, co) and tells the
// evaluator which stage it changed.
#pragma once

#include <array>

#include "model/BitMatrix.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::model {

struct Candidate {
  std::size_t size = 0;
  std::array<BitSet, kTagCount> sets;
  std::array<BitMatrix, kBaseRelCount> relations;

  /// Empty sets and relations over n events.
  explicit Candidate(std::size_t n = 0) : size(n) {
    for (auto& s : sets) s = BitSet(n);
    for (auto& r : relations) r = BitMatrix(n);
  }
  BitSet& set(Tag t) { return sets[static_cast<std::size_t>(t)]; }
  const BitSet& set(Tag t) const { return sets[static_cast<std::size_t>(t)]; }
  BitMatrix& rel(BaseRel r) { return relations[static_cast<std::size_t>(r)]; }
  const BitMatrix& rel(BaseRel r) const { return relations[static_cast<std::size_t>(r)]; }
};

}  // namespace ptxmm::model
