// What ptxas must make of each PTX instruction the harness emits, on sm_90 with CUDA 13 (spec/ptx-model.md §6,
// re-observed with nvcc 13.0 and cuobjdump): the SASS instructions that carry it (its anchors: the memory
// instruction with its opcode, operation, width and .STRONG level, the CTA barrier, the SYNCS / UBLKCP / UTMA /
// LDGSTS / DEPBAR / UCGABAR / FENCE.VIEW.ASYNC instructions of the Hopper-era forms), the MEMBAR that must
// precede a release half or implement a fence, and the CCTL.IVALL that must follow an acquire half wider than
// the CTA. The expectation is data (the tables in SassExpectation.cpp); the checker only compares.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "validate/PtxForm.hpp"

namespace ptxmm::validate {

/// MEMBAR ordering flavours and levels, weakest first, so that `>=` means "at least as strong".
enum class MembarKind : std::uint8_t { All, Sc };
enum class MembarLevel : std::uint8_t { Cta, Gpu, Sys };

struct SassMembar {
  MembarKind kind = MembarKind::All;
  MembarLevel level = MembarLevel::Cta;
};

/// One SASS instruction that must carry (part of) a litmus instruction.
struct SassAnchor {
  std::string opcode;                  // LDG STG ATOMG REDG LDS STS ATOMS LD ST ATOM BAR SYNCS LDGSTS ...
  std::string op;                      // ATOM*/RED*: ADD CAS EXCH AND OR XOR MIN MAX INC DEC; BAR: SYNC or ARV
  std::vector<std::string> alsoOp;     // other spellings of `op` ptxas may choose (red.shared.add 1: POPC)
  std::vector<std::string> required;   // further modifiers that must be present (SYNCS: ARRIVE TRANS64 ...)
  std::vector<std::string> forbidden;  // modifiers that must be absent (a local arrive is not .RED)
  bool strong = true;                  // the .STRONG level is checked against `strength`
  std::string strength;                // "" (weak), "STRONG.SM", "STRONG.GPU" or "STRONG.SYS"
  int width = 8;                       // bytes; 0: not checked
  int barrierId = 0;
  int barrierCount = 0;                // BAR; -1: no count operand (all threads)
  std::optional<long> depbar;          // DEPBAR.LE SB0, N: the N
  bool optional = false;               // ptxas emits it only in some contexts (LDGDEPBAR of cp.async.wait_all)

  /// The expected instruction as text, e.g. "LDG.E.64.STRONG.GPU", "SYNCS.ARRIVE.TRANS64.RED".
  std::string describe() const;
};

struct SassExpectation {
  std::optional<SassMembar> membarBefore;  // before the first anchor (or, without anchors, where the fence is)
  std::vector<SassAnchor> anchors;         // in this order; none for pure fences
  bool invalidateAfter = false;            // CCTL.IVALL after the last anchor (or where the fence is)

  /// The expected SASS as text, e.g. "MEMBAR.ALL.GPU; STG.E.64.STRONG.GPU".
  std::string describe() const;
};

/// The expectation for one emitted instruction; nullopt for instructions without SASS of their own (register
/// arithmetic, branches).
std::optional<SassExpectation> expectedSass(const PtxForm& form);

/// "MEMBAR.SC.GPU" and the like.
std::string membarText(const SassMembar& m);

}  // namespace ptxmm::validate
