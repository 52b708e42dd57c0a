// The kernel checker (issue 18 items 2, 4, 5, 6): a KernelProgram (a launch instantiated by frontend/ptx) in,
// its races, the verdicts of its claims on final memory, its hangs out. The engines never see the whole launch:
//   1. the launch is unrolled once (KernelGraph) and its barrier structure made static (BarrierPhases);
//   2. conflicting pairs come from a per-buffer sweep (ConflictSweep);
//   3. each pair is decided by the cheapest sound rule: morally strong by the model's own `ms` (PairOracle);
//      ordered by barrier phases, program order, static cluster barriers or static mbarriers
//      (KernelValues::before, ClusterPhases, MbarrierPhases);
//      unordered in every execution when the may-order graph has no path either way (MayOrder; bundled model
//      only); otherwise by an engine on a slice (SliceBuilder, SliceRunner), whose answers are shared by
//      symmetric pairs;
//   4. claims are decided from forced values when every write is ordered, or the writes are a base and atomic
//      adds (FinalValues), else on a slice of the writes.
// Anything a bound or an unsupported construct leaves undecided is named in the result (status Unknown); it is
// never reported as race-free or as holding.
#pragma once

#include <string>
#include <vector>

#include "checker/TestRunner.hpp"
#include "checker/kernel/KernelResult.hpp"
#include "checker/kernel/SliceBuilder.hpp"
#include "frontend/ptx/KernelProgram.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker::kernel {

struct KernelOptions {
  RunOptions run;                 // engine, loop unrolling and engine options for slices
  double timeoutSeconds = 0;      // for the whole check (0: none)
  SliceLimits slices;
  bool mayOrderShortcut = true;   // the may-order rule is a consequence of the bundled model: off for --model
  std::vector<std::string> asserts;   // --assert claims as written
  std::vector<std::string> observes;  // --observe locations as written
};

/// Checks one instantiated launch. Throws model::UserError for a malformed or unknown claim (located in the
/// option's text); every other problem is part of the result.
KernelResult checkKernel(const model::CatModel& model, const frontend::KernelProgram& kernel, const KernelOptions& options);

}  // namespace ptxmm::checker::kernel
