// `ptxmm validate --tune`: searches the parameter space for the set that shows weak behaviour most often.
// Each trial draws a parameter set with its own seed and runs every given test for budget/trials seconds; a
// forbidden test is replaced by its allowed sibling (weak outcomes of a forbidden test never appear, by
// design). The score is weak outcomes per second, not per instance: a set that runs fewer instances but shows
// the weak outcome more often per second of GPU time is the better one.
#pragma once

#include <string>
#include <vector>

#include "app/ExitCode.hpp"
#include "app/hardware/HardwareOptions.hpp"

namespace ptxmm::app {

/// Runs the search, prints one line per trial and test and the best set, and writes the best set as a
/// parameter file to <out>/tuned-params.json.
ExitCode tuneFiles(const std::vector<std::string>& files, const HardwareOptions& options);

}  // namespace ptxmm::app
