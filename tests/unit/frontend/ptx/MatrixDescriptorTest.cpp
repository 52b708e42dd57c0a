// Unit tests of wgmma matrix descriptors (MatrixDescriptor.hpp): the bit fields of the PTX ISA's "Matrix
// Descriptor Format", and the bytes a K-major operand reads without swizzling (core matrices of 128 contiguous
// bytes at start + i * SBO + j * LBO) and with a swizzle (whole swizzle-width segments of each row).
#include <catch2/catch.hpp>

#include "frontend/ptx/MatrixDescriptor.hpp"

using namespace ptxmm::frontend::ptx;
using Ranges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

namespace {

std::uint64_t encode(std::uint64_t start, std::uint64_t lbo, std::uint64_t sbo, std::uint64_t base, std::uint64_t swizzle) {
  return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | base << 49 | swizzle << 62;
}

}  // namespace

TEST_CASE("matrix descriptor fields", "[frontend][ptx][wgmma]") {
  const MatrixDescriptor d = decodeMatrixDescriptor(encode(0x1230, 128, 1024, 5, 1));
  CHECK(d.start == 0x1230);
  CHECK(d.leadingOffset == 128);
  CHECK(d.strideOffset == 1024);
  CHECK(d.baseOffset == 5);
  CHECK(d.swizzleBytes == 128);
  CHECK(decodeMatrixDescriptor(encode(0, 0, 0, 0, 2)).swizzleBytes == 64);
  CHECK(decodeMatrixDescriptor(encode(0, 0, 0, 0, 3)).swizzleBytes == 32);
  CHECK(decodeMatrixDescriptor(encode(0, 0, 0, 0, 0)).swizzleBytes == 0);
  // Bits outside the fields (14-15, 30-31, 46-48, 52-61) are ignored.
  CHECK(decodeMatrixDescriptor(encode(0x40, 16, 32, 0, 0) | std::uint64_t{0xc000} | std::uint64_t{7} << 46) ==
        decodeMatrixDescriptor(encode(0x40, 16, 32, 0, 0)));
}

TEST_CASE("operand bytes without swizzling: core matrices at start + i * SBO + j * LBO", "[frontend][ptx][wgmma]") {
  // B of m64n8k16: one 8-row group, two core matrices along K, LBO 128: 256 contiguous bytes.
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0x400, 128, 256, 0, 0)), 8) == Ranges{{0x400, 0x500}});
  // 16 rows with LBO 512 and SBO 128: core matrices at 0, 512 (K) and 128, 640 (second group).
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0, 512, 128, 0, 0)), 16) == Ranges{{0, 256}, {512, 768}});
  // A gap between the groups is not read.
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0, 128, 1024, 0, 0)), 16) == Ranges{{0, 256}, {1024, 1280}});
}

TEST_CASE("operand bytes with a swizzle: the swizzle-width segments of each row", "[frontend][ptx][wgmma]") {
  // 128-byte swizzle, 8 rows of 128 bytes (SBO 1024): the k-slice at byte 32 of each row reads, after the
  // permutation, some 32 bytes of each 128-byte row: the whole 1024-byte atom is taken.
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0x2020, 0, 1024, 0, 1)), 8) == Ranges{{0x2000, 0x2400}});
  // 64 rows: eight atoms, SBO apart.
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0, 16, 1024, 0, 1)), 64) == Ranges{{0, 8192}});
  // 32-byte swizzle: 8 rows of 32 bytes, exactly the rows.
  CHECK(operandBytes(decodeMatrixDescriptor(encode(0x100, 0, 512, 0, 3)), 16) == Ranges{{0x100, 0x200}, {0x300, 0x400}});
}
