// A kernel launch unrolled once, whole: the EventGraph of its Program (the same unroller and instruction
// semantics the engines use, so every tag the static reasoning looks at is the engines' tag) plus what the
// kernel checker asks of every event: its thread and instruction, its byte range in a buffer, whether it
// happens on every complete path of its thread, whether a loop (a wait that might not end) comes before it,
// and where it is in the user's source. Nothing here decides ordering; it is the index the analyses share.
//
// Loops are unrolled to the bound; the static analyses rely on that being enough without knowing how many
// iterations an execution needs: an instruction's later iterations access the same bytes (residual addresses
// are concrete) and come after the earlier ones in po, so with two iterations every later copy relates to other
// events as the second does, and barriers inside loops are not static (BarrierPhases). The engines check on
// each slice that no consistent execution needs more iterations than they unrolled.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checker/PathEnumerator.hpp"
#include "checker/kernel/KernelResult.hpp"
#include "frontend/ptx/KernelProgram.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::checker::kernel {

/// A memory event of a thread with its bytes: [lo, hi) of buffers[buffer].
struct KernelAccess {
  int event = -1;
  int buffer = -1;
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  int location = -1;  // index into KernelProgram::locations (and Program::locations)
  bool write = false;
};

class KernelGraph {
 public:
  /// Unrolls `kernel.program` with loops unrolled `unrollBound` times. Throws model::UserError as the unroller does.
  KernelGraph(const frontend::KernelProgram& kernel, int unrollBound);

  const frontend::KernelProgram& kernel() const { return kernel_; }
  const model::EventGraph& graph() const { return graph_; }
  const model::Event& event(int e) const { return graph_.events[static_cast<std::size_t>(e)]; }

  /// The index of the instruction performing event `e` in its thread's code.
  int instructionIndex(int e) const;
  const frontend::Instruction& instruction(int e) const;
  /// Whether `e` happens on every path of its thread that reaches the thread's end.
  bool unconditional(int e) const;
  /// Whether a loop of the residual code (a spin wait) can come before `e` in its thread.
  bool afterLoop(int e) const;
  /// Whether `e` is itself inside a loop of the residual code.
  bool inLoop(int e) const;
  /// The memory events of the threads (initial writes and the virtual cluster-barrier location excluded).
  const std::vector<KernelAccess>& accesses() const { return accesses_; }
  /// The Program location index of a physical location (-1: a virtual one, the cluster barrier's).
  int locationOfPhysical(int paddr) const { return locationOfPhysical_[static_cast<std::size_t>(paddr)]; }
  /// The access record of a memory event, if it has one.
  const KernelAccess* access(int e) const;
  /// The control-flow paths of a thread (PathEnumerator.hpp): values as terms over reads.
  const std::vector<ThreadPath>& paths(int thread) const { return paths_[static_cast<std::size_t>(thread)]; }
  /// The term a write event stores, when every path of its thread that performs it stores the same term.
  model::ValuePtr writeTerm(int e) const;
  /// Where instruction `instr` of thread `thread` is, as reports name it.
  KernelPosition position(int thread, int instr) const;
  /// Where origin `origin` (KernelProgram::origins) is, seen from thread `thread` (-1: no thread).
  KernelPosition originPosition(int thread, int origin) const;
  /// Where a loop of a thread is: its last located instruction (the back edge, usually), or the nearest located
  /// instruction before it when the loop has none of its own (a jump the instantiator made).
  KernelPosition loopPosition(int thread, int loop) const;
  /// Threads of one block as reports name them: "block 0 threads 32..95" (linear thread ids, ranges merged).
  std::string threadRange(const std::vector<int>& threads) const;
  /// The position of event `e`'s instruction.
  KernelPosition position(int e) const { return position(event(e).thread, instructionIndex(e)); }

 private:
  void classifyNodes(int thread);

  const frontend::KernelProgram& kernel_;
  model::EventGraph graph_;
  std::vector<std::vector<std::uint8_t>> nodeFlags_;  // per thread, per node: kUnconditional | kAfterLoop | kInLoop
  std::vector<KernelAccess> accesses_;
  std::vector<int> accessOf_;  // per event: index into accesses_, or -1
  std::vector<int> locationOfPhysical_;
  std::vector<std::vector<ThreadPath>> paths_;
};

}  // namespace ptxmm::checker::kernel
