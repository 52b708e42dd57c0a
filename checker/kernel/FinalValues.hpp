// Values in the complete executions of a launch that no single forced writer gives (KernelValues.hpp gives those):
// a location updated by many threads' atomics — a counter, a sum, a histogram bin, a bitmap, a running max, a
// ring index — has, after all of them, one value whatever order they run in. The rule, for a point P (a read, or
// the end of the launch) and a location L of one access size:
//   * every write to L executes in every complete execution or in none of them (its thread's paths decide it with
//     forced values; a compare-and-swap's write only where its compare is forced), and is ordered (barrier
//     phases, program order) before P or after it;
//   * of the executed writes before P, the base B is a write every other plain write is ordered before, and
//     every other one is an atomic update (an `atom/red` other than cas, whose value is a function of the value
//     it reads, or a locked increment) ordered before B or after it; those after B are pairwise morally strong
//     (the model's own `ms`) or ordered;
//   then P sees the updates after B applied to value(B) in their coherence order, which FinalValuesCombine.hpp
//   turns into one value when every order gives the same one. Why (spec §3.1, §3.3, §3.5, §3.6): B is causally
//   before every such update, so none reads a write coherence-before B (Causality) and each is coherence-after B
//   (Coherence); ms updates are totally ordered in coherence and each reads its immediate predecessor (RMW
//   atomicity, SC per location); the writes before B are coherence-before it. So the coherence-last write before
//   P holds the combination, and P (causally after all of them, before the rest) reads it.
// Only complete executions are considered (a write whose thread's every path is refuted by forced values still
// happens in an execution that hangs before the refuting branch): these values answer claims on final memory,
// never race or hang questions, which are decided in every execution.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "checker/kernel/FinalValuesCombine.hpp"
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
  // The write as an atomic update of its location (an atom/red, or a locked increment), or nothing.
  std::optional<RmwUpdate> update(int write);
  // A float atom.add `u` whose write term is `term` over its read half `own`, or nothing.
  std::optional<RmwUpdate> floatUpdate(RmwUpdate u, const model::ValuePtr& term, int own);

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
