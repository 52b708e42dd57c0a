// The syntax of the Hopper-era instructions in litmus tests: barrier.cluster, bar.warp.sync, mbarrier.*,
// cp.async{.bulk{.tensor}}, st.async/red.async, tcgen05.*, wgmma.*, and the restricted and async/tensormap
// forms of fence. Each family has its own qualifier table; this module turns a mnemonic and its qualifiers into
// an Instruction skeleton and the roles of its operands, with a positioned error for anything else. The
// litmus parser dispatches to it and parses the operands. Qualifiers that only describe shapes or types
// (`.b64`, `.cta_group::1`, `.m64n8k16`, `.32x32b`, `.x1`, `.kind::f16` ...) are accepted and ignored: they have
// no memory-model meaning.
#pragma once

#include <string_view>
#include <vector>

#include "frontend/Program.hpp"
#include "frontend/QualifierRules.hpp"

namespace ptxmm::frontend {

/// What may be written at an operand position of a Hopper-era instruction.
enum class HopperRole : std::uint8_t {
  Dst,        // a register
  DstOrSink,  // a register or `_` (mbarrier.arrive's state)
  Addr,       // [name] or name
  AddrPair,   // [map, name]: a tensor map and the global location it stands for
  Value,      // a register or an integer
  Count,      // an integer
};

struct HopperForm {
  Instruction ins;  // op, sem, scope, space and the family's flags; operands still empty
  std::vector<HopperRole> roles;
  std::size_t required = 0;  // the first `required` operands must be present
};

/// Whether `mnemonic` with these qualifiers belongs to a Hopper-era family handled here.
bool isHopperInstruction(std::string_view mnemonic, const std::vector<WrittenQual>& quals);

/// The instruction the qualifiers describe. Throws model::UserError at the offending qualifier (or at the
/// mnemonic for a missing one).
HopperForm interpretHopper(std::string_view mnemonic, const model::SourcePos& at, const std::vector<WrittenQual>& quals);

}  // namespace ptxmm::frontend
