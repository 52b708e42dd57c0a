// A candidate execution's choices as plain data (global event ids): what the Z3 engine decodes from a model and
// the explicit cross-check rebuilds and re-decides.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace ptxmm::checker {

struct Witness {
  std::vector<std::vector<int>> threadEvents;  // executed events per thread, in program order
  std::vector<std::pair<int, int>> rf;         // (write, read)
  std::vector<std::pair<int, int>> co;
  std::vector<int> fenceOrder;                 // the fence.sc events in sync_fence order
  std::vector<std::pair<int, int>> syncbar;    // (arrive half, wait half)
  std::vector<std::int64_t> outcome;           // per observed key
};

}  // namespace ptxmm::checker
