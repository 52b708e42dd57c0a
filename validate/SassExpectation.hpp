// What ptxas must make of each PTX instruction the harness emits, on sm_90 with CUDA 13 (spec/ptx-model.md §6,
// re-observed with nvcc 13.0 and cuobjdump): the memory instruction (opcode, operation, width, .STRONG level),
// the MEMBAR that must precede a release half or implement a fence, and the CCTL.IVALL that must follow an
// acquire half wider than the CTA. The expectation is data (the tables in SassExpectation.cpp); the checker
// only compares.
#pragma once

#include <optional>
#include <string>

#include "validate/PtxForm.hpp"

namespace ptxmm::validate {

/// MEMBAR ordering flavours and levels, weakest first, so that `>=` means "at least as strong".
enum class MembarKind : std::uint8_t { All, Sc };
enum class MembarLevel : std::uint8_t { Cta, Gpu, Sys };

struct SassMembar {
  MembarKind kind = MembarKind::All;
  MembarLevel level = MembarLevel::Cta;
};

/// The instruction that must carry the access itself (or a CTA barrier).
struct SassAnchor {
  std::string opcode;    // LDG STG ATOMG REDG, or BAR
  std::string op;        // ATOMG/REDG: ADD CAS EXCH AND OR XOR MIN MAX INC DEC; BAR: SYNC or ARV
  std::string strength;  // "" (weak), "STRONG.SM", "STRONG.GPU" or "STRONG.SYS"
  int width = 8;         // bytes
  int barrierId = 0;
  int barrierCount = 0;
};

struct SassExpectation {
  std::optional<SassMembar> membarBefore;  // before the anchor (or, for a fence, where the fence is)
  std::optional<SassAnchor> anchor;        // none for fences
  bool invalidateAfter = false;            // CCTL.IVALL after the anchor (or where the fence is)

  /// The expected SASS as text, e.g. "MEMBAR.ALL.GPU; STG.E.64.STRONG.GPU".
  std::string describe() const;
};

/// The expectation for one emitted instruction; nullopt for instructions without SASS of their own (register
/// arithmetic, branches).
std::optional<SassExpectation> expectedSass(const PtxForm& form);

/// "MEMBAR.SC.GPU" and the like.
std::string membarText(const SassMembar& m);

}  // namespace ptxmm::validate
