// Whether the residual loops of a launch (spin waits: a flag poll, an mbarrier try_wait, a lock's compare-and-
// swap) always end, under the fair progress model (issue 13's default: every thread that can move does, and a
// write is eventually visible to a read that keeps polling it).
//
// The argument, per loop L of thread T that polls locations P (the locations its iterations read):
//   * a slice holds every write to P except T's own from L on, closed as usual (SliceBuilder), with T cut before
//     L; the engine lists the final values of P over the slice's terminating executions;
//   * a static mbarrier (MbarrierPhases.hpp) needs no slice: its final value is the one after all its arrivals;
//   * an iteration of L is run on those final values, with T's registers as they are at L's head in EVERY
//     iteration (its entry values, joined to a fixpoint with what iterations that read any value leave there: a
//     register carried from one iteration to the next is unknown unless every iteration agrees on it):
//       - it leaves L in every final state: once the others are done (memory fairness makes their last writes
//         visible), T's next iteration leaves — L ends;
//       - it comes back to L's head in some final state, without writing: T may run only after everyone else is
//         done and then reads that state forever — a hang;
//       - the slice has no terminating execution at all: a thread T waits for never finishes — a hang.
// Anything else (the slice needs T after L, registers that are not forced, an iteration that writes while it
// spins, nested loops, an engine limit) is UNKNOWN, never "ends". Issue 13's liveness machinery will replace this
// argument where it is more precise (cycles of waits, other progress models).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"
#include "checker/kernel/MbarrierPhases.hpp"
#include "checker/kernel/SliceBuilder.hpp"
#include "checker/kernel/SliceRunner.hpp"

namespace ptxmm::checker::kernel {

class LoopLiveness {
 public:
  /// `mbarriers` (optional) gives the final values of static mbarriers without a slice.
  LoopLiveness(const KernelGraph& kernel, const BarrierPhases& phases, KernelValues& values, const MbarrierPhases* mbarriers,
               SliceBuilder& builder, SliceRunner& runner, SliceLimits limits, std::function<double()> remaining);

  /// Decides every loop of the launch: hangs are added to `hangs`, what stays undecided to `unknowns`, and the
  /// loops that always end, as (thread, loop), to `ends` when given.
  void check(std::vector<KernelHang>& hangs, std::vector<std::string>& unknowns, std::set<std::pair<int, int>>* ends = nullptr);

 private:
  enum class Verdict : std::uint8_t { Ends, Hangs, Unknown };
  struct Outcome {
    Verdict verdict = Verdict::Unknown;
    std::string detail;
  };
  using Known = std::optional<std::int64_t>;

  Outcome checkLoop(int thread, int loop);
  std::vector<std::vector<Known>> entryStates(int thread, int header, bool& complete,
                                             const std::function<Known(int)>& read) const;
  struct Return {  // a path of one iteration that comes back to the loop's head
    std::vector<Known> regs;
    bool guessed;  // some branch on the way had an unknown condition
    bool wrote;
  };
  Outcome iterate(int thread, int loop, int header, const std::vector<Known>& regs,
                  const std::function<Known(int)>& finalValue) const;
  /// The paths of one iteration that come back, or nullopt where a nested loop is entered.
  std::optional<std::vector<Return>> walkIteration(int thread, int loop, int header, const std::vector<Known>& regs,
                                                   const std::function<Known(int)>& read) const;
  /// What the registers hold at the loop's head in every iteration, from their values on entry.
  std::optional<std::vector<Known>> headState(int thread, int loop, int header, std::vector<Known> regs) const;

  const KernelGraph& k_;
  const BarrierPhases& phases_;
  KernelValues& values_;
  const MbarrierPhases* mbarriers_;
  SliceBuilder& builder_;
  SliceRunner& runner_;
  SliceLimits limits_;
  std::function<double()> remaining_;
};

}  // namespace ptxmm::checker::kernel
