// The spin-loop rule both engines apply (design.md, "spin loops are awaits"): a loop iteration that goes back to
// the loop head having written no memory, arrived at no barrier and assigned no register that is live at the
// head cannot be observed, and neither can any execution containing it — the same execution without that
// iteration reaches the same final state. The explicit engine drops such paths (PathEnumerator), the Z3 engine
// excludes such executions (z3/ProgramEncoding); what makes an iteration observable is decided here, once.
#pragma once

#include "model/EventGraph.hpp"

namespace ptxmm::checker {

/// Whether `event` happening makes the loop iteration it belongs to observable: a write, or a barrier arrival
/// or wait (another thread's progress depends on it).
bool observableEvent(const model::Event& event);

/// Whether assigning register `reg` in an iteration of `loop` makes the iteration observable: the register is
/// live at the loop's head.
bool observableAssignment(const model::LoopInfo& loop, int reg);

}  // namespace ptxmm::checker
