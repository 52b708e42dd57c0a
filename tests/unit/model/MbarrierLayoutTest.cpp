// An mbarrier's state value shown field by field (model::mbar::describe), from the packing MbarrierLayout.hpp
// documents: tx-count + 2^21 in bits 0..21, expected in 22..41, pending in 42..61, the phase modulo 4 in 62..63.
#include <catch2/catch.hpp>

#include <cstdint>

#include "model/MbarrierLayout.hpp"

using ptxmm::model::mbar::describe;

namespace {

std::int64_t state(std::int64_t phase, std::int64_t pending, std::int64_t expected, std::int64_t tx) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(phase) << 62) | (pending << 42) | (expected << 22) |
         (tx + (std::int64_t{1} << 21));
}

}  // namespace

TEST_CASE("an mbarrier state reads as phase, pending of expected arrivals and tx-count", "[model][mbarrier]") {
  CHECK(describe(state(0, 1, 1, 0)) == "{phase 0, pending 1 of 1, tx 0}");
  CHECK(describe(state(1, 3, 4, 128)) == "{phase 1, pending 3 of 4, tx 128}");
  CHECK(describe(state(3, 0, 1048575, -1048575)) == "{phase 3, pending 0 of 1048575, tx -1048575}");
}
