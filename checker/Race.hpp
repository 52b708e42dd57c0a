// A PTX data race as reported to users: its kind, the two instructions, what would fix it, and one execution
// in which it happens.
#pragma once

#include <string>
#include <utility>

#include "checker/Witness.hpp"
#include "model/Diagnostic.hpp"

namespace ptxmm::checker {

struct RaceAccess {
  std::string thread;       // "P0"
  std::string instruction;  // "st.weak x, 1"
  model::SourcePos pos;
};

struct Race {
  std::string kind;  // a name from the race-kind table (RaceFinder.hpp)
  RaceAccess first;
  RaceAccess second;
  std::string fix;
  Witness witness;
  std::pair<int, int> events;  // the racing events of the witness (global ids)
};

}  // namespace ptxmm::checker
