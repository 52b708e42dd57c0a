// A tensor map (CUtensorMap) of a launch, as `--arg NAME=tensormap(...)` describes it: a tiled view of a global
// buffer (dimensions innermost first, byte strides, element size) and the box one cp.async.bulk.tensor moves.
// It answers the one question a copy asks: for the box at given coordinates, which global bytes each box element
// is and where it lies in shared memory. The box is contiguous in shared memory, element (i0, i1, ...) at
// ((i_{n-1} * box_{n-2} + ...) * box0 + i0) * esize, with the 16-byte chunks of each swizzle span XOR-permuted
// by the row (CUTLASS's Swizzle<B,4,3>, what CU_TENSOR_MAP_SWIZZLE_32B/64B/128B do); an element whose
// coordinates fall outside the tensor reads nothing and is zero-filled (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptxmm::frontend::ptx {

class TensorMap {
 public:
  /// A run of box elements contiguous in shared memory and (when inBounds) in global memory.
  struct Run {
    std::int64_t shared = 0;  // byte offset from the box's shared-memory start
    std::int64_t global = 0;  // byte offset in the buffer (inBounds only)
    std::int64_t bytes = 0;
    bool inBounds = true;
  };

  /// `strides`: bytes between consecutive indices of dimensions 1.. (empty: packed). The caller has checked the
  /// shapes (LaunchArgs) and `valid()` below.
  TensorMap(int buffer, int elementBytes, std::vector<std::int64_t> dims, std::vector<std::int64_t> box,
            std::vector<std::int64_t> strides, int swizzle);

  /// Why this map is one cuTensorMapEncodeTiled would refuse, or "" when it is valid.
  std::string invalid() const;

  int buffer() const { return buffer_; }
  int rank() const { return static_cast<int>(dims_.size()); }
  int elementBytes() const { return elementBytes_; }
  std::int64_t boxBytes() const;
  /// One past the last byte of the buffer the tensor covers.
  std::int64_t extentBytes() const;
  /// The alignment the shared-memory destination or source of a copy needs (128, or the swizzle's repeat).
  std::int64_t sharedAlignment() const;
  /// The box at `coords` (one per dimension, innermost first) as runs in shared-memory order: with no swizzle,
  /// one run per box row (split where the row leaves the tensor); with a swizzle, one run per 16-byte chunk.
  std::vector<Run> runs(const std::vector<std::int64_t>& coords) const;
  /// The swizzled position of byte `offset` of the box.
  std::int64_t swizzled(std::int64_t offset) const;

 private:
  int buffer_;
  int elementBytes_;
  std::vector<std::int64_t> dims_, box_, strides_;  // strides_[k]: bytes per index of dimension k (k = 0: esize)
  int swizzle_;
};

}  // namespace ptxmm::frontend::ptx
