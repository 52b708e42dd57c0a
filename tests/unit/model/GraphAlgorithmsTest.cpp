// The relation toolkit's graph algorithms: the coherence candidates are exactly the strict partial orders (their
// number is OEIS A001035); cliques, cycles and shortest paths on small hand-made relations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "model/GraphAlgorithms.hpp"

using namespace ptxmm::model;

TEST_CASE("strict partial orders on 0..5 elements are counted by A001035", "[model][co]") {
  const std::vector<std::size_t> expected{1, 1, 3, 19, 219, 4231};
  for (int m = 0; m <= 5; ++m) REQUIRE(strictPartialOrders(m).size() == expected[static_cast<std::size_t>(m)]);
}

TEST_CASE("every generated order is transitive and irreflexive, and none repeats", "[model][co]") {
  const auto& orders = strictPartialOrders(4);
  std::set<Order> seen;
  for (auto o : orders) {
    std::sort(o.begin(), o.end());
    REQUIRE(seen.insert(o).second);
    for (auto [a, b] : o) {
      REQUIRE(a != b);
      for (auto [c, d] : o)
        if (b == c) REQUIRE(std::find(o.begin(), o.end(), std::pair{a, d}) != o.end());
    }
  }
}

TEST_CASE("maximal cliques of a symmetric relation, isolated elements as singletons", "[model][graph]") {
  BitMatrix r(4);
  for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {0, 2}}) {
    r.set(static_cast<std::size_t>(a), static_cast<std::size_t>(b));
    r.set(static_cast<std::size_t>(b), static_cast<std::size_t>(a));
  }
  std::set<std::vector<std::size_t>> cliques;
  for (const auto& c : maximalCliques(r)) cliques.insert(c.elements());
  REQUIRE(cliques == std::set<std::vector<std::size_t>>{{0, 1, 2}, {3}});
}

TEST_CASE("a cycle of a relation is found in order, and none in an acyclic one", "[model][graph]") {
  BitMatrix r(4);
  r.set(0, 1);
  r.set(1, 2);
  r.set(2, 3);
  REQUIRE(findCycle(r).empty());
  r.set(3, 1);
  const auto cycle = findCycle(r);
  REQUIRE(cycle.size() == 3);
  for (std::size_t k = 0; k < cycle.size(); ++k) REQUIRE(r.test(cycle[k], cycle[(k + 1) % cycle.size()]));
}

TEST_CASE("a shortest path follows the fewest edges", "[model][graph]") {
  BitMatrix r(5);
  r.set(0, 1);
  r.set(1, 2);
  r.set(2, 4);
  r.set(0, 3);
  r.set(3, 4);
  using Edges = std::vector<std::pair<std::size_t, std::size_t>>;
  REQUIRE(shortestPath(r, 0, 4) == Edges{{0, 3}, {3, 4}});
  REQUIRE(shortestPath(r, 4, 0).empty());
}
