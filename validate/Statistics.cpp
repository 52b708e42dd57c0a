// Outcome rates and reproducibility (Statistics.hpp).
#include "validate/Statistics.hpp"

#include <cmath>

namespace ptxmm::validate {

double ratePerSecond(std::uint64_t count, double seconds) { return seconds > 0 ? static_cast<double>(count) / seconds : 0; }

double reproducibility(std::uint64_t count) { return -std::expm1(-static_cast<double>(count)); }

}  // namespace ptxmm::validate
