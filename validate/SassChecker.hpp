// Reads `cuobjdump -sass` output and checks each role function against the expectation of its litmus code: the
// SASS instructions that carry the litmus instructions (memory accesses, CTA barriers, the SYNCS, copy-engine,
// TMA, async-group, cluster-barrier and async-proxy-fence instructions of the Hopper-era forms) appear in
// program order, as many as expected, each with the expected opcode, modifiers, width and .STRONG level, none
// missing and none extra (adjacent weak accesses of different locations may be swapped, as the model allows);
// the MEMBAR of every release half and fence and the CCTL.IVALL of every acquire half sit between the right
// neighbours; accesses inside litmus loops are inside SASS loops and no others are (waterfall loops over the
// lanes of a warp and the WARPSYNC.COLLECTIVE copies of an instruction for divergent warps are told apart); and
// no warp-collective instruction (the signature of aggregated atomics) appears. A test that fails any of this is
// refused: its hardware run would not execute the litmus test.
#pragma once

#include <string>
#include <vector>

#include "model/Diagnostic.hpp"
#include "validate/SassExpectation.hpp"

namespace ptxmm::validate {

struct SassInstruction {
  unsigned address = 0;
  std::string predicate;              // "@P0", "@!PT", ... or empty
  std::string opcode;                 // "LDG.E.64.STRONG.GPU"
  std::string base;                   // "LDG"
  std::vector<std::string> modifiers; // {"E", "64", "STRONG", "GPU"}
  std::string operands;               // "R4, desc[UR4][R6.64]"
};

struct SassFunction {
  std::string name;  // without cuobjdump's "$N" suffix
  std::vector<SassInstruction> code;
};

/// The functions of a `cuobjdump -sass` listing, in listing order.
std::vector<SassFunction> parseSass(const std::string& listing);

/// The function named `name`, or nullptr.
const SassFunction* findFunction(const std::vector<SassFunction>& functions, const std::string& name);

/// One litmus instruction with SASS of its own, in program order.
struct ExpectedInstruction {
  std::string text;  // the litmus instruction as written
  model::SourcePos pos;
  SassExpectation sass;
  bool inLoop = false;
  // Adjacent instructions the model does not order may come in any order: plain weak accesses (a weak ld/st with
  // one anchor and no fence half) of different locations, such an access beside a proxy fence limited to the
  // other state space (fence.proxy.async.global does not order a shared-memory store), and such an access beside
  // an async-group commit (commit_group bundles earlier copies; it orders no generic access).
  enum class Swap : std::uint8_t { None, WeakAccess, SpaceFence, Commit };
  Swap swap = Swap::None;
  int location = -1;     // WeakAccess: its location
  bool shared = false;   // the state space of the access, or the one the fence is limited to
};

struct SassVerdict {
  std::vector<std::string> problems;  // any problem refuses the test
  std::vector<std::string> notes;     // facts worth reporting (extra fences: they only strengthen)
  int anchors = 0;                    // memory instructions and barriers verified
  bool ok() const { return problems.empty(); }
};

/// Checks one role function; `who` names the role in messages ("P1").
SassVerdict checkRole(const SassFunction& function, const std::vector<ExpectedInstruction>& expected, const std::string& who);

/// 64-bit FNV-1a of a listing, as 16 hex digits (the SASS hash in reports).
std::string fnv1a(const std::string& text);

}  // namespace ptxmm::validate
