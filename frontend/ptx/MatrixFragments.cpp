// The .m8n8 .b16 fragment layout of ldmatrix / stmatrix (MatrixFragments.hpp).
#include "frontend/ptx/MatrixFragments.hpp"

namespace ptxmm::frontend::ptx {

std::vector<FragmentPiece> fragmentPieces(int lane, bool transposed) {
  if (!transposed) return {{lane / 4, 4 * (lane % 4), 4, 0}};
  return {{2 * (lane % 4), 2 * (lane / 4), 2, 0}, {2 * (lane % 4) + 1, 2 * (lane / 4), 2, 16}};
}

}  // namespace ptxmm::frontend::ptx
