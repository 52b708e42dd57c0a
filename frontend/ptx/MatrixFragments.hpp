// Which bytes of shared memory each lane of a warp reads or writes in ldmatrix / stmatrix .m8n8 .b16 (PTX ISA,
// "Warp-level matrix load instruction: ldmatrix" and "stmatrix"). Matrix j of an .x1/.x2/.x4 instruction has 8
// rows of 16 bytes (8 elements of 16 bits); lane 8j+r gives the address of its row r. Without .trans lane t holds,
// for each matrix, row t/4's elements 2(t%4) and 2(t%4)+1: the 32-bit word at byte 4(t%4) of row t/4. With
// .trans it holds them of the transposed matrix: element t/4 of rows 2(t%4) (low half) and 2(t%4)+1 (high half),
// two 16-bit elements at byte 2(t/4) of two rows. The evaluator models the instruction as exactly these accesses,
// each performed by the lane whose register holds the bytes (the hardware moves the data of lane t's register
// from or to those bytes; which unit computes the address does not change which bytes move), so a race names the
// lane whose fragment it concerns and --assert sees the loaded values.
#pragma once

#include <vector>

namespace ptxmm::frontend::ptx {

/// A piece of lane t's register for one matrix: the row whose address lane `row` (+ 8j) gives, the byte offset
/// in that row, how many bytes, and where they sit in the 32-bit register (bit position).
struct FragmentPiece {
  int row = 0;
  int offset = 0;
  int bytes = 4;
  int shift = 0;

  bool operator==(const FragmentPiece&) const = default;
};

/// The pieces of `lane`'s register for one 8x8 matrix of 16-bit elements, in register order (low bits first).
std::vector<FragmentPiece> fragmentPieces(int lane, bool transposed);

}  // namespace ptxmm::frontend::ptx
