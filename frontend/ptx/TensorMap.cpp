// The element layout of a tensor map's box (TensorMap.hpp).
#include "frontend/ptx/TensorMap.hpp"

namespace ptxmm::frontend::ptx {

TensorMap::TensorMap(int buffer, int elementBytes, std::vector<std::int64_t> dims, std::vector<std::int64_t> box,
                     std::vector<std::int64_t> strides, int swizzle)
    : buffer_(buffer), elementBytes_(elementBytes), dims_(std::move(dims)), box_(std::move(box)), swizzle_(swizzle) {
  strides_.push_back(elementBytes_);
  for (std::size_t k = 1; k < dims_.size(); ++k)
    strides_.push_back(strides.empty() ? strides_[k - 1] * dims_[k - 1] : strides[k - 1]);
}

std::string TensorMap::invalid() const {
  const std::int64_t row = box_[0] * elementBytes_;
  if (row % 16) return "the box's innermost extent is " + std::to_string(row) + " bytes, not a multiple of 16";
  if (swizzle_ && row != swizzle_)
    return "with swizzle=" + std::to_string(swizzle_) + " ptxmm needs the box's innermost extent to be " +
           std::to_string(swizzle_) + " bytes (it is " + std::to_string(row) + ")";
  return "";
}

std::int64_t TensorMap::boxBytes() const {
  std::int64_t n = elementBytes_;
  for (std::int64_t b : box_) n *= b;
  return n;
}

std::int64_t TensorMap::extentBytes() const {
  std::int64_t last = 0;
  for (std::size_t k = 0; k < dims_.size(); ++k) last += (dims_[k] - 1) * strides_[k];
  return last + elementBytes_;
}

std::int64_t TensorMap::sharedAlignment() const { return swizzle_ ? swizzle_ * 8 : 128; }

std::int64_t TensorMap::swizzled(std::int64_t offset) const {
  if (!swizzle_) return offset;
  const std::int64_t mask = swizzle_ / 16 - 1;  // 1, 3, 7: the 16-byte chunks of one span
  return offset ^ (((offset >> 7) & mask) << 4);
}

std::vector<TensorMap::Run> TensorMap::runs(const std::vector<std::int64_t>& coords) const {
  std::vector<Run> out;
  const std::size_t n = dims_.size();
  const std::int64_t rowBytes = box_[0] * elementBytes_;
  std::int64_t rows = 1;
  for (std::size_t k = 1; k < n; ++k) rows *= box_[k];
  // Within a row, the in-bounds elements are those with 0 <= coords[0] + i0 < dims[0].
  const std::int64_t lo = std::max<std::int64_t>(0, -coords[0]);
  const std::int64_t hi = std::min<std::int64_t>(box_[0], dims_[0] - coords[0]);
  for (std::int64_t r = 0; r < rows; ++r) {
    bool rowIn = true;
    std::int64_t base = 0;
    for (std::size_t k = 1, rest = static_cast<std::size_t>(r); k < n; ++k) {
      const std::int64_t c = coords[k] + static_cast<std::int64_t>(rest % static_cast<std::size_t>(box_[k]));
      rest /= static_cast<std::size_t>(box_[k]);
      rowIn = rowIn && c >= 0 && c < dims_[k];
      base += c * strides_[k];
    }
    const std::int64_t at = r * rowBytes;
    auto add = [&](std::int64_t from, std::int64_t to, bool in) {  // elements [from, to) of the row
      if (from >= to) return;
      const std::int64_t global = base + (coords[0] + from) * elementBytes_;
      if (!swizzle_) return out.push_back({at + from * elementBytes_, global, (to - from) * elementBytes_, in});
      // Swizzled: chunk by chunk (an element never straddles a 16-byte chunk: sizes are 1 to 8 bytes).
      for (std::int64_t b = from * elementBytes_; b < to * elementBytes_;) {
        const std::int64_t end = std::min<std::int64_t>((b / 16 + 1) * 16, to * elementBytes_);
        out.push_back({swizzled(at + b), base + coords[0] * elementBytes_ + b, end - b, in});
        b = end;
      }
    };
    if (!rowIn || lo >= hi) {
      add(0, box_[0], false);
      continue;
    }
    add(0, lo, false);
    add(lo, hi, true);
    add(hi, box_[0], false);
  }
  return out;
}

}  // namespace ptxmm::frontend::ptx
