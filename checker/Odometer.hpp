// Enumerates the cartesian product of independent choices: digit i runs over 0..size(i)-1.
#pragma once

#include <cstddef>
#include <vector>

namespace ptxmm::checker {

/// Advances `digits` to the next combination; false (and all digits back at 0) after the last one.
template <class Size>
bool advance(std::vector<std::size_t>& digits, Size size) {
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (++digits[i] < size(i)) return true;
    digits[i] = 0;
  }
  return false;
}

}  // namespace ptxmm::checker
