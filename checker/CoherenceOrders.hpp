// Coherence-order candidates for the explicit engine: every strict partial order on the non-initial writes
// of a location (co need not be total: racing writes may stay unordered, §2.12, A5). Their number grows fast
// (1, 3, 19, 219, 4231, 130023 for 1..6 writes), which bounds what the explicit engine can decide.
#pragma once

#include <utility>
#include <vector>

namespace ptxmm::checker {

/// Largest number of non-initial writes to one location the explicit engine enumerates orders for.
inline constexpr int kMaxCoherenceWrites = 6;

using Order = std::vector<std::pair<int, int>>;  // (a, b): a is co-before b

/// Every strict partial order on {0..m-1} (m <= kMaxCoherenceWrites), computed once per m.
const std::vector<Order>& strictPartialOrders(int m);

}  // namespace ptxmm::checker
