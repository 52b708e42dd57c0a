// Renderings of a KernelResult (issue 18's names, which scripts rely on): the text report — the launch,
// `Races N` and each race with both positions (FILE:LINE:COL and the PTX line), the witness's block and thread
// coordinates, its kind and fix (`fix (checked): ...` when RaceFixes re-checked it, else `fix (not checked): ...`);
// each assertion `holds` or its counterexample; observed values; hangs; `Time` —
// and one JSON object per kernel: name, file, kernel, grid, block, cluster, status, reason, races, assertions,
// observed, hangs, out_of_bounds, notes, time_ms, fix_ms, nvcc_ms; each race has `fix` and `fix_checked`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "checker/kernel/KernelResult.hpp"

namespace ptxmm::checker::kernel {

/// The text report of one kernel.
std::string kernelText(const KernelResult& result);

/// The JSON object of one kernel.
nlohmann::json kernelJson(const KernelResult& result);

/// "ok", "unknown" or "error".
std::string kernelStatusName(KernelStatus status);

}  // namespace ptxmm::checker::kernel
