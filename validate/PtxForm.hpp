// The exact PTX instruction the harness emits for one litmus instruction, with the defaults the model assumes
// written out (ld/st without semantics are .weak, atom/red without semantics are .relaxed.gpu, a fence without
// semantics is .acq_rel, membar is spelled as written, the state space is the one of the address the harness
// passes). Hopper-era instructions (mbarrier, barrier.cluster, cp.async, bulk copies and TMA, st.async,
// red.async, proxy and restricted fences) keep their mnemonic exactly as written, except that a tensor copy
// without a dimension gets `.1d` (the harness's tensor map is 1-D). The CUDA generator prints the form; the
// SASS expectation table reads its fields. One place decides both, so the check verifies what was emitted.
#pragma once

#include <optional>
#include <string>

#include "frontend/Program.hpp"
#include "validate/HardwareTest.hpp"

namespace ptxmm::validate {

enum class FormKind : std::uint8_t {
  Load, Store, Atom, Red, Fence, Membar, BarSync, BarArrive,
  // Hopper-era: `source` holds the instruction with its qualifiers.
  MbarInit, MbarArrive, MbarExpectTx, MbarCompleteTx, MbarWait, CpAsync, CpAsyncCommit, CpAsyncWait, CpAsyncMbarArrive,
  BulkCopy, StAsync, RedAsync, FenceProxy, FenceRestricted, ClusterArrive, ClusterWait, BarWarpSync,
  None
};

struct PtxForm {
  FormKind kind = FormKind::None;
  frontend::Sem sem = frontend::Sem::Weak;  // effective: Weak Relaxed Acquire Release AcqRel Sc Volatile
  std::optional<model::Scope> scope;        // effective scope (none for weak and volatile accesses)
  frontend::AtomOp op = frontend::AtomOp::Add;
  int width = 8;                            // bytes of the access (of the copy, for cp.async and bulk copies)
  int barrierId = 0;
  int barrierCount = 0;
  AddrKind space = AddrKind::Global;        // the address kind of an access, or of an mbarrier operand
  std::string mnemonic;                     // "ld.acquire.gpu.global.u64", "fence.sc.gpu", "bar.sync 1, 64",
                                            // "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64"
  frontend::Instruction source;             // the litmus instruction (Hopper-era forms read its flags)

  bool isAccess() const { return kind == FormKind::Load || kind == FormKind::Store || kind == FormKind::Atom || kind == FormKind::Red; }
};

/// The form of `in` on a location of `width` bytes addressed as `space`; `barrierCount` is the resolved count
/// of a CTA barrier. Instructions that are not memory operations (register arithmetic, branches, labels) give
/// kind None.
PtxForm ptxForm(const frontend::Instruction& in, int width, int barrierCount, AddrKind space = AddrKind::Global);

/// The form of instruction `instr` of `role` as the harness emits it: the width, address kind and barrier count
/// that the analysis decided.
PtxForm roleForm(const HardwareTest& hw, const HwRole& role, int instr);

/// The bytes a 64-bit-typed st.async/red.async moves (.b64/.u64/.s64): 8; otherwise 4.
int asyncStoreWidth(const frontend::Instruction& in);

/// "cta", "cluster", "gpu" or "sys".
std::string scopeWord(model::Scope scope);

/// The mnemonic of a Hopper-era instruction as written (its text up to the operands), `.1d` added to a tensor
/// copy that names no dimension.
std::string writtenMnemonic(const frontend::Instruction& in);

}  // namespace ptxmm::validate
