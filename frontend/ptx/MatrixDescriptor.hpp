// The shared-memory operands of wgmma.mma_async (PTX ISA, "Asynchronous Warpgroup Level Matrix Shared Memory
// Layout": "Matrix Descriptor Format" and the canonical K-major layouts). A 64-bit descriptor holds the start
// address >> 4 (bits 0-13), the leading-dimension byte offset >> 4 (16-29), the stride-dimension byte offset >> 4
// (32-45), a base offset (49-51) and the swizzle mode (62-63: 0 none, 1 128-byte, 2 64-byte, 3 32-byte).
//
// Every dense wgmma reads 32 bytes of K per row (k16 of 16-bit, k8 of tf32, k32 of 8-bit, k256 of b1), in rows of
// the M (A: 64) or N (B) dimension. Without swizzling (K-major "interleave"), the operand is made of core
// matrices of 8 rows x 16 bytes stored as 128 contiguous bytes: core matrix (i, j) (i along M/N, j along K)
// starts at start + i * SBO + j * LBO. With a swizzle of width W (128, 64 or 32 bytes) row r starts at
// start + (r / 8) * SBO + (r % 8) * W, and its 16-byte chunks are permuted inside the W-aligned segment that
// holds them (the permutation XORs address bits inside the segment, phased by the base offset): the bytes read
// are taken as the whole W-aligned segments the row's 32 bytes meet. That is an over-approximation (a write to
// another chunk of the same segment conflicts with the read), never an under-approximation; where a kernel
// writes whole stages, as pipelined kernels do, it names the same bytes the stage writes. The MN-major
// (transposed) layouts are not modelled (the evaluator refuses them).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ptxmm::frontend::ptx {

struct MatrixDescriptor {
  std::uint64_t start = 0;          // shared-memory byte address
  std::uint64_t leadingOffset = 0;  // LBO, bytes
  std::uint64_t strideOffset = 0;   // SBO, bytes
  int baseOffset = 0;
  int swizzleBytes = 0;             // 0 (none), 128, 64 or 32

  bool operator==(const MatrixDescriptor&) const = default;
};

MatrixDescriptor decodeMatrixDescriptor(std::uint64_t bits);

/// The shared-memory byte ranges [from, to) a K-major operand of `rows` rows (a multiple of 8) and 32 bytes of
/// K reads, sorted and merged.
std::vector<std::pair<std::uint64_t, std::uint64_t>> operandBytes(const MatrixDescriptor& d, int rows);

}  // namespace ptxmm::frontend::ptx
