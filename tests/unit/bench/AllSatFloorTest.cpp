// The AllSAT floor bench/ prints is only a lower bound if its loop enumerates every state exactly once.
#include "bench/AllSatFloor.hpp"

#include <catch2/catch.hpp>

using ptxmm::bench::measureAllSatFloor;

TEST_CASE("the AllSAT floor lists each of the 2^k states of k free values once", "[z3][bench]") {
  CHECK(measureAllSatFloor(1).states == 2);
  CHECK(measureAllSatFloor(3).states == 8);
  CHECK(measureAllSatFloor(6).states == 64);
}
