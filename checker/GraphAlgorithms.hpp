// Graph algorithms over relations of one execution, from Boost.Graph: the maximal cliques the
// SC-per-location axiom quantifies over, and a witness cycle of a relation (for explanations).
#pragma once

#include <vector>

#include "model/BitMatrix.hpp"

namespace ptxmm::checker {

/// The maximal cliques of a symmetric relation (isolated events form singleton cliques).
std::vector<model::BitSet> maximalCliques(const model::BitMatrix& symmetric);

/// The events of one cycle of r in order (e0 r e1 r ... r e0), or empty when r is acyclic.
std::vector<std::size_t> findCycle(const model::BitMatrix& r);

}  // namespace ptxmm::checker
