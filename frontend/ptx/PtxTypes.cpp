// The rows behind PtxTypes.hpp.
#include "frontend/ptx/PtxTypes.hpp"

#include <array>
#include <utility>

namespace ptxmm::frontend::ptx {
namespace {

using K = PtxType::Kind;

struct TypeRow {
  std::string_view name;
  PtxType type;
  bool opaqueArithmetic = false;
};

constexpr std::array kTypes = {
    TypeRow{"b8", {K::Bits, 8}},      TypeRow{"b16", {K::Bits, 16}},    TypeRow{"b32", {K::Bits, 32}},
    TypeRow{"b64", {K::Bits, 64}},    TypeRow{"b128", {K::Bits, 128}},  TypeRow{"u8", {K::Unsigned, 8}},
    TypeRow{"u16", {K::Unsigned, 16}}, TypeRow{"u32", {K::Unsigned, 32}}, TypeRow{"u64", {K::Unsigned, 64}},
    TypeRow{"s8", {K::Signed, 8}},    TypeRow{"s16", {K::Signed, 16}},  TypeRow{"s32", {K::Signed, 32}},
    TypeRow{"s64", {K::Signed, 64}},  TypeRow{"f32", {K::Float, 32}},   TypeRow{"f64", {K::Float, 64}},
    TypeRow{"pred", {K::Pred, 1}},
    // Half, bfloat, tf32, 8-bit floats and packed types move as bits; their arithmetic is not evaluated.
    TypeRow{"f16", {K::Float, 16}, true},   TypeRow{"bf16", {K::Float, 16}, true},
    TypeRow{"f16x2", {K::Float, 32}, true}, TypeRow{"bf16x2", {K::Float, 32}, true},
    TypeRow{"tf32", {K::Float, 32}, true},  TypeRow{"e4m3", {K::Float, 8}, true},
    TypeRow{"e5m2", {K::Float, 8}, true},   TypeRow{"e4m3x2", {K::Float, 16}, true},
    TypeRow{"e5m2x2", {K::Float, 16}, true}, TypeRow{"f32x2", {K::Float, 64}, true},
    TypeRow{"u16x2", {K::Unsigned, 32}, true}, TypeRow{"s16x2", {K::Signed, 32}, true},
};

const TypeRow* row(std::string_view name) {
  for (const auto& r : kTypes)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

std::optional<PtxType> findType(std::string_view name) {
  const TypeRow* r = row(name);
  return r ? std::optional(r->type) : std::nullopt;
}

bool hasOpaqueArithmetic(std::string_view name) {
  const TypeRow* r = row(name);
  return r && r->opaqueArithmetic;
}

}  // namespace ptxmm::frontend::ptx
