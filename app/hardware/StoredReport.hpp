// `ptxmm validate --compare REPORT`: the hardware histograms of a stored report (cases/hw/*.json) against the
// current model, without a GPU; a state observed on hardware that the model forbids now is a finding.
#pragma once

#include <string>

#include "app/ExitCode.hpp"
#include "app/hardware/HardwareOptions.hpp"

namespace ptxmm::app {

/// Re-checks the stored report at `reportPath` against the current model and prints the differences: exit 1
/// when an observed state is forbidden by the model now.
ExitCode compareReport(const std::string& reportPath, const HardwareOptions& options);

}  // namespace ptxmm::app
