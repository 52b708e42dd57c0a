// The PTX fundamental types (`.b32`, `.u64`, `.s8`, `.f32`, `.pred` ...) in one table: their width, whether
// they are signed, unsigned, untyped bits, floating point or a predicate. The reader uses it for declarations
// and the instantiator for the meaning of every typed instruction (how values wrap, extend and compare).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxmm::frontend::ptx {

struct PtxType {
  enum class Kind : std::uint8_t { Bits, Unsigned, Signed, Float, Pred };
  Kind kind = Kind::Bits;
  int bits = 32;  // 1 for .pred; 16 for .f16/.bf16; 32 for packed .f16x2/.bf16x2; 128 for .b128

  int bytes() const { return bits < 8 ? 1 : bits / 8; }
  bool isSigned() const { return kind == Kind::Signed; }
  bool isFloat() const { return kind == Kind::Float; }
  bool operator==(const PtxType&) const = default;
};

/// The type spelled `name` (without the dot: "u32", "f16x2", "pred"), or nullopt.
std::optional<PtxType> findType(std::string_view name);

/// Whether ptxmm leaves arithmetic on `name` unevaluated (opaque): f16, bf16, tf32, fp8 and packed types.
bool hasOpaqueArithmetic(std::string_view name);

}  // namespace ptxmm::frontend::ptx
