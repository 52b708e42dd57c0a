// The statistics a hardware report gives per outcome: how often per second it was seen, and how likely a rerun
// of the same length is to see it again.
#pragma once

#include <cstdint>

namespace ptxmm::validate {

/// Occurrences per second (0 for an empty run).
double ratePerSecond(std::uint64_t count, double seconds);

/// The probability that a rerun of the same length sees an outcome seen `count` times, taking the count as the
/// mean of a Poisson process: 1 - e^(-count). One sighting gives 0.63, three give 0.95, seven give 0.999.
double reproducibility(std::uint64_t count);

}  // namespace ptxmm::validate
