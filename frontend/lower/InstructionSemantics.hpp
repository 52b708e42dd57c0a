// What each PTX instruction does, as events: tags (semantics, scope, proxy, state space), values written, the
// register effects, barrier operands, and for asynchronous instructions what the async-order pass needs to
// relate them to the rest of their thread. It also rejects misuse the model cannot give a meaning to (an
// mbarrier accessed with ld/st, a .shared::cta access to another CTA's memory, copy sizes that do not match),
// each with the position of the offending operand. Part of the unroller.
#pragma once

#include <functional>
#include <vector>

#include "frontend/Program.hpp"
#include "frontend/lower/MemoryLayout.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::frontend {

/// What an instruction instance means for the ordering of asynchronous operations (AsyncOrder.hpp).
enum class AsyncKind : std::uint8_t {
  None,
  CpAsync,        // a non-bulk cp.async: tracked by async-groups and cp.async.mbarrier.arrive
  CpCommit,       // cp.async.commit_group
  CpWait,         // cp.async.wait_group / wait_all
  CpMbarArrive,   // cp.async.mbarrier.arrive: an async arrive after every prior cp.async of the thread
  BulkMbar,       // a bulk copy completing on an mbarrier (its completion is its own)
  BulkGroup,      // a bulk copy tracked by bulk-groups
  BulkCommit,     // cp.async.bulk.commit_group
  BulkWait,       // cp.async.bulk.wait_group{.read}
  AsyncStore,     // st.async / red.async (completion is its own)
  TcOp,           // tcgen05.mma / tcgen05.cp: pipelined, tracked by tcgen05.commit
  TcLd,           // tcgen05.ld: tracked by tcgen05.wait::ld
  TcSt,           // tcgen05.st: tracked by tcgen05.wait::st
  TcCommit,       // tcgen05.commit: an async arrive after the thread's prior mma/cp
  TcWaitLd,
  TcWaitSt,
  TcFenceBefore,  // tcgen05.fence::before_thread_sync
  TcFenceAfter,   // tcgen05.fence::after_thread_sync
  WgFence,        // wgmma.fence
  WgMma,          // wgmma.mma_async: not ordered after prior instructions but by wgmma.fence
  WgCommit,
  WgWait,
};

struct AsyncRecord {
  AsyncKind kind = AsyncKind::None;
  std::vector<int> accesses;  // the operation's asynchronous accesses
  std::vector<int> reads;     // the reads among them (retired by a `.read` bulk wait)
  int marker = -1;            // completion point (bulk group), async arrive (read half), wait or fence event
  int implicitFence = -1;     // the implicit async->generic proxy fence at completion
  std::int64_t groups = 0;    // waits: how many of the most recent groups may stay pending
  bool readOnly = false;      // cp.async.bulk.wait_group.read
  bool commitsFirst = false;  // cp.async.wait_all = commit_group; wait_group 0 (wait_group N commits nothing)
};

/// The context of one thread while its nodes are emitted.
struct ThreadContext {
  const Program& program;
  const Thread& thread;
  const Layout& layout;
  model::EventGraph& graph;
  model::ThreadGraph& out;
  std::function<int(const std::string&)> regId;  // the id of a register of the thread, allocating it
};

/// Adds the events and register effects of instruction `in` at node `nodeIndex` of the thread. Throws
/// model::UserError on misuse.
AsyncRecord emitInstruction(ThreadContext& ctx, int nodeIndex, const Instruction& in);

/// Checks, before unrolling, what needs the whole program: every mbarrier used is initialised somewhere,
/// barrier.cluster is not inside a loop, asynchronous group bookkeeping is not inside a loop.
void checkProgram(const Program& program);

}  // namespace ptxmm::frontend
