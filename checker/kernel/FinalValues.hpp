// Values in the complete executions of a launch that no single forced writer gives (KernelValues.hpp gives those):
// a location updated by many threads' atomic adds — a counter, a sum, a histogram bin — has, after all of them,
// its base value plus every add's operand, whatever order they run in. The rule, for a point P (a read, or the
// end of the launch) and a location L of one access size:
//   * every write to L executes in every complete execution or in none of them (its thread's paths decide it with
//     forced values), and is ordered (barrier phases, program order) before P or after it;
//   * of the executed writes before P, the base B is the one every other plain write is ordered before, and every
//     other one is an integer `atom/red.add` ordered after B, pairwise morally strong (the model's own `ms`);
//   then P sees value(B) + the sum of the adds. Why (spec §3.1, §3.3, §3.5, §3.6): B is causally before every add,
//   so no add reads a write coherence-before B (Causality) and every add is coherence-after B (Coherence); ms adds
//   are totally ordered in coherence and each reads its immediate predecessor (RMW atomicity, SC per location);
//   the writes before B are coherence-before it. So the coherence-last write before P holds the whole sum, and P
//   (causally after all of them, before the rest) reads it.
// Only complete executions are considered (a write whose thread's every path is refuted by forced values still
// happens in an execution that hangs before the refuting branch): these values answer claims on final memory,
// never race or hang questions, which are decided in every execution.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"

namespace ptxmm::checker::kernel {

class FinalValues {
 public:
  /// `morallyStrong(a, b)`: the model's `ms` for two writes of one location.
  FinalValues(const KernelGraph& kernel, KernelValues& values, std::function<bool(int, int)> morallyStrong);

  /// Also counts, as adds, the counter updates of spin locks (SpinLocks.hpp: `increment(w)`, the constant a
  /// write adds), which are pairwise ordered by `lockOrdered(a, b)` instead of being morally strong.
  void addLockedIncrements(std::function<std::optional<std::int64_t>(int)> increment, std::function<bool(int, int)> lockOrdered);
  /// The value physical location `paddr` holds at the end of every complete execution, when the rule decides it.
  std::optional<std::int64_t> finalValue(int paddr);
  /// Whether event `e` happens in every complete execution (true), in none (false), or nothing forces it.
  std::optional<bool> executes(int e);

 private:
  // The value of the location after the writes `before` (all of them executed; the point comes after them).
  std::optional<std::int64_t> accumulate(const std::vector<int>& before);
  std::optional<std::int64_t> readValue(int read);
  std::optional<std::int64_t> writeValue(int write);
  std::optional<std::int64_t> addOperand(int write);

  const KernelGraph& k_;
  KernelValues& values_;
  std::function<bool(int, int)> morallyStrong_;
  std::function<std::optional<std::int64_t>(int)> increment_;
  std::function<bool(int, int)> lockOrdered_;
  std::map<int, std::optional<std::int64_t>> reads_;
  std::map<int, std::optional<bool>> executes_;
  std::set<int> inProgress_;
};

}  // namespace ptxmm::checker::kernel
