// Unpacking an mbarrier value for reports (MbarrierLayout.hpp).
#include "model/MbarrierLayout.hpp"

namespace ptxmm::model::mbar {

std::string describe(std::int64_t value) {
  const auto u = static_cast<std::uint64_t>(value);
  const auto field = [&](int shift, std::int64_t mask) { return static_cast<std::int64_t>((u >> shift) & static_cast<std::uint64_t>(mask)); };
  const std::int64_t phase = field(kPhaseShift, 3), pending = field(kPendingShift, kCountMask);
  const std::int64_t expected = field(kExpectedShift, kCountMask), tx = field(0, kTxMask) - kTxOffset;
  return "{phase " + std::to_string(phase) + ", pending " + std::to_string(pending) + " of " + std::to_string(expected) +
         ", tx " + std::to_string(tx) + "}";
}

}  // namespace ptxmm::model::mbar
