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
// read the same answer); a kernel's typed atomic wraps its result to its width, and only canonical values of that
// width are tried for its read. An RMW whose write changes memory for some read values but not for others
// (`atom.exch 1` in a test-and-set loop that retries while it reads 1, `atom.max 0` in a loop that retries while
// it reads 0, an operand register that holds 0) is a write-back candidate: its iteration is unobservable in
// exactly the executions where it writes the value its read half read, which both engines test per execution
// (the explicit search assumes `written == read` on one path and its negation on another; the Z3 encoding puts
// the equality into the iteration's cleanliness).
//
// Why dropping such an iteration I (an RMW r->w with val(w) = val(r), r reading w0) loses no final state under
// the PTX model: take the execution without I in which every read of w reads w0 instead. The values read are the
// same (val(w0) = val(r) = val(w)) and the registers I assigns are dead at the loop head. The model's atomicity puts
// no write morally strong with the RMW between w0 and w in co, so where w was co-last w0 now is, with the same
// value (same final state), a read of w that now reads w0 can be overwritten only by writes that were co-after w
// already (fr shrinks), and the observation chain w0 -> r -> w -> R through the RMW becomes w0 -> R: the
// execution without I is consistent. A write
// that is NOT morally strong with the RMW (weak, or out of its scope) may sit between w0 and w in co, and a read
// ordered after that write may read w; that execution has no counterpart without I. So the reduction applies only
// when every other thread's write of the location is morally strong with the RMW (checked statically: strong
// tags, scopes holding each other's thread, one virtual address, the generic proxy); a racy RMW poll is unrolled.
#pragma once

#include "model/EventGraph.hpp"

namespace ptxmm::checker {

/// Whether event `event` of `graph` happening makes the loop iteration it belongs to observable: a write that
/// can change memory, or a barrier arrival or wait (another thread's progress depends on it).
bool observableEvent(const model::EventGraph& graph, int event);

/// Whether write event `event` is the write half of a read-modify-write that always writes back the value its
/// read half read (memory unchanged).
bool unchangingWrite(const model::EventGraph& graph, int event);

/// The read half of the read-modify-write whose write half is `event`, or -1 when `event` is not such a write.
int rmwRead(const model::EventGraph& graph, int event);

/// Whether event `event` is a write-back candidate: the write half of a read-modify-write (not a barrier) that is
/// not an unchangingWrite; it makes its iteration observable exactly when it writes another value than its read
/// half read (observableEvent is true for it: callers test the values).
bool writeBackCandidate(const model::EventGraph& graph, int event);

/// Whether assigning register `reg` in an iteration of `loop` makes the iteration observable: the register is
/// live at the loop's head.
bool observableAssignment(const model::LoopInfo& loop, int reg);

}  // namespace ptxmm::checker
