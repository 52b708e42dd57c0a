// The exact PTX instruction the harness emits for one litmus instruction, with the defaults the model assumes
// written out (ld/st without semantics are .weak, atom/red without semantics are .relaxed.gpu, a fence without
// semantics is .acq_rel, membar is spelled as written). The CUDA generator prints it; the SASS expectation
// table reads its fields. One place decides both, so the check verifies what was emitted.
#pragma once

#include <optional>
#include <string>

#include "frontend/Program.hpp"

namespace ptxmm::validate {

enum class FormKind : std::uint8_t { Load, Store, Atom, Red, Fence, Membar, BarSync, BarArrive, None };

struct PtxForm {
  FormKind kind = FormKind::None;
  frontend::Sem sem = frontend::Sem::Weak;  // effective: Weak Relaxed Acquire Release AcqRel Sc Volatile
  std::optional<model::Scope> scope;        // effective scope (none for weak and volatile accesses)
  frontend::AtomOp op = frontend::AtomOp::Add;
  int width = 8;                            // bytes of the access
  int barrierId = 0;
  int barrierCount = 0;
  std::string mnemonic;                     // "ld.acquire.gpu.global.u64", "fence.sc.gpu", "bar.sync 1, 64"

  bool isAccess() const { return kind == FormKind::Load || kind == FormKind::Store || kind == FormKind::Atom || kind == FormKind::Red; }
};

/// The form of `in` on a location of `width` bytes; `barrierCount` is the resolved count of a barrier.
/// Instructions that are not memory operations (register arithmetic, branches, labels) give kind None.
PtxForm ptxForm(const frontend::Instruction& in, int width, int barrierCount);

/// "cta", "cluster", "gpu" or "sys".
std::string scopeWord(model::Scope scope);

}  // namespace ptxmm::validate
