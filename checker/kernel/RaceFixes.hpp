// Checked fixes for kernel races (issue 18 item 5): the fix a report offers is not advice but a change of the
// kernel that was re-checked. For each race group, candidate changes of the launch's residual code are built,
// weakest first — an access of an async copy's bytes moved after the wait completing the copy in its thread; a
// load/add/store increment made one relaxed atom.add (a lost update); widen the scope of the two
// accesses (or make the plain one of an atomic/plain pair atomic); make a later write of the first thread .release
// and an earlier read of the second .acquire (a flag both touch); a fence.acq_rel pair of the threads' common scope
// after the first access and before the second; fence.proxy.async
// next to the access of the async proxy; a CTA barrier (bar.sync 0, __syncthreads) right after the first access or
// right before the second, in every thread of the block; last, the two accesses themselves made release/acquire —
// each applied to the PTX instruction of that origin in EVERY thread (what editing the kernel does), and the whole
// launch is checked again (without claims). A candidate is offered only when the re-check decides the kernel as far
// as the original check did, reports no race on that line pair, and adds no race group, hang or out-of-bounds
// access; otherwise the next is tried, and when none works the report says so (with the unchecked advice).
// Cost: only racy kernels pay, one full re-check per candidate tried, within what --timeout leaves after the check
// (without --timeout: four times the check, at least 5 s, in all).
#pragma once

#include <string>
#include <vector>

#include "checker/kernel/KernelChecker.hpp"
#include "checker/kernel/KernelResult.hpp"
#include "frontend/ptx/KernelProgram.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker::kernel {

/// A change of the kernel a fix proposes: its text for the report and the changed launch.
struct FixCandidate {
  std::string text;                  // "add fence.acq_rel.gpu after kernel.cu:12 (PTX line 40) and ..."
  frontend::KernelProgram kernel;    // the launch with the change applied in every thread
};

/// The candidates for `race` of `result` (a race `checkKernel` reported on `kernel`), weakest first. Empty when the
/// race's instructions cannot be found in the residual code (then nothing can be checked).
std::vector<FixCandidate> fixCandidates(const frontend::KernelProgram& kernel, const KernelRace& race);

/// Whether a re-check of a candidate (`fixed`) removes `race` of `original` without making anything worse: no race
/// on its line pair, no undecided pair on it, no race group, hang or out-of-bounds access `original` lacks, and no
/// reason to be unknown that `original` did not have.
bool fixRemovesRace(const KernelResult& original, const KernelRace& race, const KernelResult& fixed);

/// Replaces the advice of every race of `result` (the result of checkKernel(model, kernel, options)) by the first
/// candidate whose re-check removes it (fixChecked), or says that none did within the time left. Returns the
/// seconds spent (also in result.fixSeconds).
double checkRaceFixes(const model::CatModel& model, const frontend::KernelProgram& kernel, const KernelOptions& options,
                      KernelResult& result);

}  // namespace ptxmm::checker::kernel
