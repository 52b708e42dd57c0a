// Unit tests of a tensor map's box layout (TensorMap.hpp): the runs of a box inside the tensor, at its edges
// (out-of-bounds elements zero-filled, reading nothing), in 3-D with explicit strides, the swizzled chunk
// order, and the maps cuTensorMapEncodeTiled would refuse.
#include <catch2/catch.hpp>

#include "frontend/ptx/TensorMap.hpp"

using ptxmm::frontend::ptx::TensorMap;

namespace {

struct R {
  std::int64_t shared, global, bytes;
  bool in;
};

void requireRuns(const std::vector<TensorMap::Run>& got, const std::vector<R>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("run " << i);
    CHECK(got[i].shared == want[i].shared);
    CHECK(got[i].bytes == want[i].bytes);
    CHECK(got[i].inBounds == want[i].in);
    if (want[i].in) CHECK(got[i].global == want[i].global);
  }
}

}  // namespace

TEST_CASE("a 2-D box inside the tensor is one run per row", "[frontend][ptx][tma]") {
  const TensorMap m(0, 4, {8, 4}, {4, 2}, {}, 0);  // 8x4 int32, rows of 32 bytes
  CHECK(m.boxBytes() == 32);
  CHECK(m.extentBytes() == 128);
  requireRuns(m.runs({2, 1}), {{0, 40, 16, true}, {16, 72, 16, true}});
}

TEST_CASE("a box at the tensor's edge zero-fills what lies outside", "[frontend][ptx][tma]") {
  const TensorMap m(0, 4, {8, 4}, {4, 2}, {}, 0);
  // Columns 6, 7 of row 3 are in; columns 8, 9 and all of row 4 are not.
  requireRuns(m.runs({6, 3}), {{0, 120, 8, true}, {8, 0, 8, false}, {16, 0, 16, false}});
  // Negative coordinates: columns -1 and row -1 are out.
  requireRuns(m.runs({-1, -1}), {{0, 0, 16, false}, {16, 0, 4, false}, {20, 0, 12, true}});
}

TEST_CASE("a 3-D box with explicit byte strides", "[frontend][ptx][tma]") {
  const TensorMap m(0, 2, {8, 2, 2}, {8, 1, 2}, {32, 128}, 0);  // 16-bit elements, padded rows and planes
  CHECK(m.extentBytes() == 128 + 32 + 16);
  requireRuns(m.runs({0, 1, 0}), {{0, 32, 16, true}, {16, 160, 16, true}});
}

TEST_CASE("a swizzled box permutes the 16-byte chunks of each row by the row", "[frontend][ptx][tma]") {
  const TensorMap m(0, 4, {32, 8}, {32, 8}, {}, 128);  // rows of 128 bytes, SWIZZLE_128B
  CHECK(m.swizzled(0) == 0);
  CHECK(m.swizzled(128) == 128 + 16);       // row 1, chunk 0 -> chunk 1
  CHECK(m.swizzled(3 * 128 + 2 * 16 + 4) == 3 * 128 + (2 ^ 3) * 16 + 4);
  CHECK(m.swizzled(8 * 128 + 16) == 8 * 128 + 16);  // the pattern repeats every 8 rows
  const auto runs = m.runs({0, 0});
  REQUIRE(runs.size() == 64);  // 8 chunks per row, 8 rows
  CHECK(runs[9].shared == 128);   // row 1's chunk 1 (global bytes 144..160) lands at chunk 0
  CHECK(runs[9].global == 144);
  CHECK(m.sharedAlignment() == 1024);
  const TensorMap m64(0, 4, {16, 8}, {16, 8}, {}, 64);
  CHECK(m64.swizzled(128 + 16) == 128);  // SWIZZLE_64B: chunk ^ (row bit 7..8)
  CHECK(m64.swizzled(2 * 128) == 2 * 128 + 32);
}

TEST_CASE("maps cuTensorMapEncodeTiled refuses are refused", "[frontend][ptx][tma]") {
  CHECK(TensorMap(0, 4, {8, 4}, {4, 2}, {}, 0).invalid().empty());
  CHECK(TensorMap(0, 4, {8, 4}, {3, 2}, {}, 0).invalid().find("multiple of 16") != std::string::npos);
  CHECK(TensorMap(0, 4, {64, 4}, {16, 2}, {}, 128).invalid().find("innermost extent to be 128 bytes") != std::string::npos);
}
