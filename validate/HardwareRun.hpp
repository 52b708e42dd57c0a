// One execution of a compiled validation program: its arguments, and its JSON output read back into a value
// (the histogram of outcome tuples with counts, the instances, the time, and what was not classified).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validate/Params.hpp"
#include "validate/Workbench.hpp"

namespace ptxmm::validate {

struct HardwareRun {
  bool ok = false;
  std::string error;                 // why the program failed (its own message, or how it died)
  nlohmann::json device;             // name, compute capability, SM clock, driver and runtime versions
  nlohmann::json params;             // the parameter set it ran with
  nlohmann::json geometry;           // blocks, threads per block, cluster size, groups, instances per launch
  std::uint64_t seed = 0;
  std::uint64_t launches = 0;
  std::uint64_t instances = 0;       // classified + capped + missing
  double seconds = 0;
  std::uint64_t capped = 0;          // instances whose litmus loop hit the cap: never classified
  std::uint64_t missing = 0;         // instances a role did not play: a harness bug, never classified
  std::uint64_t barrierTimeouts = 0;
  std::uint64_t lost = 0;            // outcomes that fitted neither the hash table nor the overflow list
  std::uint64_t gpuForbidden = 0;    // instances the GPU found outside the model's states
  std::vector<std::pair<std::vector<std::int64_t>, std::uint64_t>> histogram;
  nlohmann::json forbiddenExamples;  // [{instance, launch, thread_map, location_map, values}]
};

/// Reads the program's standard output (a failed run gives ok == false and the reason).
HardwareRun parseRunOutput(const std::string& output, int status);

/// Runs `binary` on `bench` for `budget` seconds with `seed` and `params`; `maxLaunches` > 0 stops it earlier.
HardwareRun runProgram(Workbench& bench, const std::string& binary, double budget, std::uint64_t seed,
                       const ParamSet& params, std::uint64_t maxLaunches = 0);

}  // namespace ptxmm::validate
