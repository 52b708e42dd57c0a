// The coherence candidates are exactly the strict partial orders: their number is OEIS A001035.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "checker/CoherenceOrders.hpp"

using namespace ptxmm::checker;

TEST_CASE("strict partial orders on 0..5 elements are counted by A001035", "[checker][co]") {
  const std::vector<std::size_t> expected{1, 1, 3, 19, 219, 4231};
  for (int m = 0; m <= 5; ++m) REQUIRE(strictPartialOrders(m).size() == expected[static_cast<std::size_t>(m)]);
}

TEST_CASE("every generated order is transitive and irreflexive, and none repeats", "[checker][co]") {
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
