// The least a Z3 outcome listing can cost: AllSAT over k free Booleans, constrained by nothing, with the Z3
// engine's loop (simple solver; check, get_model and a blocking clause per state). Listing a test's permitted
// states this way takes one such call per state on a larger formula, so the time for 2^k states here is what
// the listing of any test with 2^k permitted states costs at the least (measured, not proven: a larger formula
// is assumed not to make a call cheaper). bench/ prints it next to the scaling families.
#pragma once

#include <cstddef>

namespace ptxmm::bench {

struct AllSatFloor {
  std::size_t states = 0;   // models enumerated (2^k when the loop is right)
  double contextMs = 0;     // creating the Z3 context (paid once per process; not in listMs)
  double listMs = 0;        // the enumeration loop, context excluded
};

AllSatFloor measureAllSatFloor(unsigned freeBooleans);

}  // namespace ptxmm::bench
