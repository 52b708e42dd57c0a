// The rules that tie an instruction's qualifiers together, shared by the litmus and nvlitmus readers so that an
// instruction means the same, and is refused with the same message, in both: every qualifier is known and
// allowed on its mnemonic, at most one of each kind, a strong ld/st needs a scope and a weak one takes none,
// .mmio needs .relaxed.sys, fences need a scope, atom/red/bar/setp need their operation, and fence.proxy takes
// its target from the qualifiers after it. The readers collect the spellings and where they stand; the
// meanings come from InstructionTable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/InstructionTable.hpp"
#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// A qualifier as written.
struct WrittenQual {
  std::string spelling;  // without the dot
  model::SourcePos pos;  // of the dot
};

/// Sets on `ins` what the qualifiers of `mnemonic` (written at `at`, described by `info`) say: semantics, scope,
/// space, operation, comparison, barrier action, or a proxy fence's target. Throws model::UserError at the first
/// offending qualifier, or at the mnemonic for a missing one.
void applyQualifiers(Instruction& ins, const MnemonicInfo& info, std::string_view mnemonic,
                     const model::SourcePos& at, const std::vector<WrittenQual>& quals);

}  // namespace ptxmm::frontend
