// The relation toolkit's graph algorithms over relations of one execution, in one place: the maximal cliques
// the SC-per-location axiom quantifies over (`pairwise`), a witness cycle and a shortest path of a relation
// (for explanations), and the strict partial orders the explicit engine draws coherence orders from (co need not
// be total: racing writes may stay unordered, §2.12, A5). Boost.Graph does the graph work, behind
// GraphAlgorithms.cpp only, so no other file of the project includes Boost.
#pragma once

#include <utility>
#include <vector>

#include "model/BitMatrix.hpp"

namespace ptxmm::model {

/// The maximal cliques of a symmetric relation (isolated events form singleton cliques).
std::vector<BitSet> maximalCliques(const BitMatrix& symmetric);

/// The events of one cycle of r in order (e0 r e1 r ... r e0), or empty when r is acyclic.
std::vector<std::size_t> findCycle(const BitMatrix& r);

/// The edges of a shortest path from i to j in r (empty when r+ does not relate them).
std::vector<std::pair<std::size_t, std::size_t>> shortestPath(const BitMatrix& r, std::size_t i, std::size_t j);

/// Largest number of elements strictPartialOrders enumerates orders for. Their number grows fast (1, 3, 19,
/// 219, 4231, 130023 for 1..6 elements), which bounds what the explicit engine can decide.
inline constexpr int kMaxOrderedElements = 6;

using Order = std::vector<std::pair<int, int>>;  // (a, b): a is before b

/// Every strict partial order on {0..m-1} (m <= kMaxOrderedElements), computed once per m.
const std::vector<Order>& strictPartialOrders(int m);

}  // namespace ptxmm::model
