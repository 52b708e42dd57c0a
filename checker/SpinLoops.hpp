// The spin-loop rule both engines apply (design.md, "spin loops are awaits"): a loop iteration that goes back to
// the loop head having written no memory, arrived at no barrier and assigned no register that is live at the
// head cannot be observed, and neither can any execution containing it — the same execution without that
// iteration reaches the same final state. The explicit engine drops such paths (PathEnumerator), the Z3 engine
// excludes such executions (z3/ProgramEncoding); what makes an iteration observable is decided here, once.
//
// RMW polls are awaits too (issue 13): the write half of a read-modify-write that always writes back the value
// its read half read (`atom.add 0`, `atom.or 0`, `atom.xor 0`, `atom.cas` whose compare and swap operands are the
// same value, `atom.exch` of the value read) leaves memory unchanged, so it does not make an iteration observable.
// Whether it does is decided statically on the event's value term, by evaluation on sample values (both engines
// read the same answer).
#pragma once

#include "model/EventGraph.hpp"

namespace ptxmm::checker {

/// Whether event `event` of `graph` happening makes the loop iteration it belongs to observable: a write that
/// can change memory, or a barrier arrival or wait (another thread's progress depends on it).
bool observableEvent(const model::EventGraph& graph, int event);

/// Whether write event `event` is the write half of a read-modify-write that always writes back the value its
/// read half read (memory unchanged).
bool unchangingWrite(const model::EventGraph& graph, int event);

/// Whether assigning register `reg` in an iteration of `loop` makes the iteration observable: the register is
/// live at the loop's head.
bool observableAssignment(const model::LoopInfo& loop, int reg);

}  // namespace ptxmm::checker
