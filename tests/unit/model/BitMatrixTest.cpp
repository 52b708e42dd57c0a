// Unit tests of the bit-matrix relation algebra the explicit evaluator is built on.
#include <catch2/catch.hpp>

#include "model/BitMatrix.hpp"

using ptxmm::model::BitMatrix;
using ptxmm::model::BitSet;

namespace {
BitMatrix chain(std::size_t n) {  // 0 -> 1 -> ... -> n-1
  BitMatrix m(n);
  for (std::size_t i = 0; i + 1 < n; ++i) m.set(i, i + 1);
  return m;
}
}  // namespace

TEST_CASE("transitive closure of a chain relates every earlier element to every later one", "[model][bitmatrix]") {
  for (std::size_t n : {1u, 2u, 63u, 64u, 65u, 130u}) {
    const BitMatrix plus = chain(n).transitiveClosure();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) REQUIRE(plus.test(i, j) == (i < j));
    REQUIRE(plus.acyclic());
    REQUIRE(plus.reflexiveTransitiveClosure().count() == plus.count() + n);
  }
}

TEST_CASE("a back edge makes a relation cyclic", "[model][bitmatrix]") {
  BitMatrix m = chain(70);
  REQUIRE(m.acyclic());
  m.set(69, 3);
  REQUIRE_FALSE(m.acyclic());
  REQUIRE(m.irreflexive());
  REQUIRE_FALSE(m.transitiveClosure().irreflexive());
}

TEST_CASE("composition, inverse, domain and range agree with their definitions", "[model][bitmatrix]") {
  BitMatrix a(5), b(5);
  a.set(0, 1);
  a.set(2, 3);
  b.set(1, 4);
  b.set(3, 0);
  const BitMatrix ab = a.compose(b);
  REQUIRE(ab.pairs() == std::vector<std::pair<std::size_t, std::size_t>>{{0, 4}, {2, 0}});
  REQUIRE(a.inverse().test(1, 0));
  REQUIRE(a.domain().elements() == std::vector<std::size_t>{0, 2});
  REQUIRE(a.range().elements() == std::vector<std::size_t>{1, 3});
}

TEST_CASE("complement stays within the n events", "[model][bitmatrix]") {
  for (std::size_t n : {3u, 64u, 67u}) {
    BitSet s(n);
    s.set(1);
    REQUIRE(s.complement().count() == n - 1);
    BitMatrix m(n);
    m.set(0, 0);
    REQUIRE(m.complement().count() == n * n - 1);
  }
}

TEST_CASE("product, identityOn and restrictedTo", "[model][bitmatrix]") {
  BitSet s(4), t(4);
  s.set(0);
  s.set(1);
  t.set(2);
  REQUIRE(BitMatrix::product(s, t).pairs() == std::vector<std::pair<std::size_t, std::size_t>>{{0, 2}, {1, 2}});
  REQUIRE(BitMatrix::identityOn(s).count() == 2);
  BitMatrix all = BitMatrix::product(s.complement(), s.complement());
  REQUIRE(all.restrictedTo(t).pairs() == std::vector<std::pair<std::size_t, std::size_t>>{{2, 2}});
}
