// Slices (design step 5): the small Program the engines decide instead of the whole launch. A slice for some
// seed events (a conflicting pair, or the writes an assertion reads) keeps a set of instructions closed under
//   (i)   reads-from: every write a kept read may read (only its forced writer when KernelValues knows it);
//   (ii)  control and data: the reads whose values feed a kept thread's branches or a kept instruction's
//         operands, unless their value is forced (then a `mov` of that value replaces them);
//   (iii) order: every synchronising event on a may-order path between the seeds, and between each kept read
//         and the kept writes of its location in other threads, and between two such writes (MayOrder.hpp);
//   (iv)  barriers: every barrier of a kept thread, with its thread count set to the kept threads that arrive.
// Each kept thread is cut after its last kept instruction (the rest cannot change the kept events).
//
// Soundness: restricted to the kept events, every execution of the launch is an execution of the slice. The
// kept threads start as they do in the launch; the dropped instructions write nothing a kept read can read
// ((i)), decide nothing a kept thread branches on ((ii)), and the barriers' generations restricted to the kept
// threads are the launch's generations (static phases, BarrierPhases.hpp). Every check of the cat model is the
// emptiness, irreflexivity or acyclicity of an expression that only shrinks when events are removed, so the
// restriction stays consistent; and `race = conflict \ (ms | cause | cause^-1)` only grows when cause shrinks.
// So a slice without the race (or where an assertion holds) proves it for the launch. The converse does not hold
// (a slice admits executions whose dropped part the launch could not complete), which can only add races; the
// corpus measures how often (cases/kernels).
//
// The slice is built in canonical form — threads in the order the closure reaches them, CTAs, warps, clusters,
// locations, registers and labels renamed in order of first use — so symmetric pairs give the same text, which
// is the cache key of the engine's answer (the sound symmetry reduction).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"
#include "checker/kernel/MayOrder.hpp"
#include "frontend/Program.hpp"

namespace ptxmm::checker::kernel {

struct Slice {
  frontend::Program program;
  std::vector<int> threads;                    // slice thread -> kernel thread
  std::vector<std::vector<int>> instructions;  // per slice thread: slice instruction -> kernel instruction (-1: added)
  std::map<int, std::string> locationNames;    // kernel location index -> name in the slice
  std::string key;                             // the canonical text
  bool opaque = false;  // a kept value is one ptxmm does not compute (the engines read it as 0): no final values
};

struct SliceLimits {
  std::size_t maxThreads = 32;
  std::size_t maxMemoryInstructions = 160;  // memory and synchronisation instructions over all threads
};

class SliceBuilder {
 public:
  SliceBuilder(const KernelGraph& kernel, const BarrierPhases& phases, KernelValues& values, MayOrder* order);

  /// The slice of `seeds`, with the events on may-order paths between every pair in `between` (needs a
  /// MayOrder); the final values of the locations in `observed` (Program location indices) are kept exact.
  /// nullopt, with the reason in `why`, when it exceeds `limits` or cannot be made sound.
  std::optional<Slice> build(const std::vector<int>& seeds, const std::vector<std::pair<int, int>>& between,
                             const std::vector<int>& observed, const SliceLimits& limits, std::string& why);

 private:
  struct State;
  bool keep(State& s, int thread, int instr);
  void orderBetween(State& s, int a, int b);
  bool closeEvents(State& s, std::string& why);
  bool closeRegisters(State& s, std::string& why);
  bool relevantWrite(const State& s, int thread, int instr) const;
  void neededRegisters(State& s, int thread) const;
  int cutOf(int thread, const std::set<int>& kept) const;
  Slice emit(const State& s) const;

  const KernelGraph& k_;
  const BarrierPhases& phases_;
  KernelValues& values_;
  MayOrder* order_;
  std::vector<std::map<int, std::vector<int>>> nodesOf_;       // per thread: instruction -> its nodes
  std::vector<std::set<std::int64_t>> barrierIds_;             // per thread: CTA barrier ids it arrives at
};

/// Whether an instruction performs memory or synchronisation events (everything but register arithmetic and
/// control flow).
bool performsEvents(const frontend::Instruction& in);

}  // namespace ptxmm::checker::kernel
