// Counterexamples that need a weak behaviour (a read of a stale value: a lost update under a lock that publishes
// nothing, a read after a relaxed mbarrier arrive), certified by the model itself. A schedule of the whole launch
// (ScheduleExplorer.hpp) in which one plain read returns the write before the latest one of its location is not
// sequentially consistent, so nothing argues for it: it is rebuilt as a witness — one engine path per thread (the
// iterations of spin loops that the engines' paths leave out removed), rf, co and the fence.sc order as the
// schedule gives them, barrier generations as it formed them — and replayed by the explicit evaluator against
// every check of the model (WitnessReplay.hpp), and its final memory must be the one the replayed execution
// gives. Only what the model accepts is reported; anything else (a trace no path describes, a rejected check,
// a launch with more events than the evaluator is given) is no counterexample.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/kernel/ScheduleExplorer.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker::kernel {

/// Whether `model` accepts the execution `x` traced as an execution of the launch with the final memory
/// `x.memory`; `why` says why not.
bool certify(const model::CatModel& model, const KernelGraph& kernel, const ScheduledExecution& x, std::string& why);

/// A schedule with one stale read whose final memory `wanted` accepts and the model certifies; nothing when the
/// few schedules and reads tried give none before `deadline`.
std::optional<ScheduledExecution> findWeak(const model::CatModel& model, const KernelGraph& kernel, const ScheduleExplorer& explorer,
                                           const std::function<bool(const std::vector<std::int64_t>&)>& wanted,
                                           const model::Deadline& deadline);

}  // namespace ptxmm::checker::kernel
