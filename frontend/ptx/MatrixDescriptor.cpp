// Decoding wgmma matrix descriptors and the bytes an operand reads (MatrixDescriptor.hpp).
#include "frontend/ptx/MatrixDescriptor.hpp"

#include <algorithm>

namespace ptxmm::frontend::ptx {

MatrixDescriptor decodeMatrixDescriptor(std::uint64_t bits) {
  auto field = [&](int low, int width) { return (bits >> low) & ((std::uint64_t{1} << width) - 1); };
  static constexpr int kSwizzle[] = {0, 128, 64, 32};
  MatrixDescriptor d;
  d.start = field(0, 14) << 4;
  d.leadingOffset = field(16, 14) << 4;
  d.strideOffset = field(32, 14) << 4;
  d.baseOffset = static_cast<int>(field(49, 3));
  d.swizzleBytes = kSwizzle[field(62, 2)];
  return d;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> operandBytes(const MatrixDescriptor& d, int rows) {
  constexpr std::uint64_t kRowBytes = 32;  // K bytes per row of every dense wgmma
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (int group = 0; group < rows / 8; ++group) {
    const std::uint64_t base = d.start + static_cast<std::uint64_t>(group) * d.strideOffset;
    if (d.swizzleBytes == 0) {
      for (std::uint64_t j = 0; j < kRowBytes / 16; ++j) out.emplace_back(base + j * d.leadingOffset, base + j * d.leadingOffset + 128);
      continue;
    }
    const std::uint64_t w = static_cast<std::uint64_t>(d.swizzleBytes);
    for (std::uint64_t r = 0; r < 8; ++r) {
      const std::uint64_t from = base + r * w, to = from + kRowBytes;
      out.emplace_back(from / w * w, (to + w - 1) / w * w);
    }
  }
  std::sort(out.begin(), out.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
  for (const auto& r : out) {
    if (!merged.empty() && r.first <= merged.back().second) merged.back().second = std::max(merged.back().second, r.second);
    else merged.push_back(r);
  }
  return merged;
}

}  // namespace ptxmm::frontend::ptx
