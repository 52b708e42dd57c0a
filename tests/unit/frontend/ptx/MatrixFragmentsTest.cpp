// Unit tests of the ldmatrix / stmatrix .m8n8 .b16 fragment layout (MatrixFragments.hpp), after the PTX ISA's
// figures: without .trans lane t holds the word at byte 4(t%4) of row t/4; with .trans element t/4 of rows
// 2(t%4) and 2(t%4)+1.
#include <catch2/catch.hpp>

#include <set>

#include "frontend/ptx/MatrixFragments.hpp"

using namespace ptxmm::frontend::ptx;

TEST_CASE("ldmatrix without .trans: one 32-bit word of row t/4 per lane", "[frontend][ptx][matrix]") {
  CHECK(fragmentPieces(0, false) == std::vector<FragmentPiece>{{0, 0, 4, 0}});
  CHECK(fragmentPieces(5, false) == std::vector<FragmentPiece>{{1, 4, 4, 0}});
  CHECK(fragmentPieces(31, false) == std::vector<FragmentPiece>{{7, 12, 4, 0}});
  // The 32 lanes cover the 8 rows x 16 bytes of the matrix exactly once.
  std::set<std::pair<int, int>> bytes;
  for (int t = 0; t < 32; ++t)
    for (const auto& p : fragmentPieces(t, false))
      for (int b = 0; b < p.bytes; ++b) CHECK(bytes.insert({p.row, p.offset + b}).second);
  CHECK(bytes.size() == 128);
}

TEST_CASE("ldmatrix with .trans: two 16-bit elements of one column, low half first", "[frontend][ptx][matrix]") {
  // Lane 0: element 0 of rows 0 and 1. Lane 5 (t/4 = 1, t%4 = 1): element 1 (byte 2) of rows 2 and 3.
  CHECK(fragmentPieces(0, true) == std::vector<FragmentPiece>{{0, 0, 2, 0}, {1, 0, 2, 16}});
  CHECK(fragmentPieces(5, true) == std::vector<FragmentPiece>{{2, 2, 2, 0}, {3, 2, 2, 16}});
  CHECK(fragmentPieces(31, true) == std::vector<FragmentPiece>{{6, 14, 2, 0}, {7, 14, 2, 16}});
  std::set<std::pair<int, int>> bytes;
  for (int t = 0; t < 32; ++t)
    for (const auto& p : fragmentPieces(t, true))
      for (int b = 0; b < p.bytes; ++b) CHECK(bytes.insert({p.row, p.offset + b}).second);
  CHECK(bytes.size() == 128);
}
