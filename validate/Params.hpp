// Stress and geometry parameters of hardware runs as data: a parameter space (validate/params/default.json, or a
// file given with --params) lists the values of each parameter, and a run draws one value per parameter with its
// seed. The generated program receives the drawn set as `--param name=value` arguments.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ptxmm::validate {

struct ParamSpace {
  std::string source;  // the file, or "built-in default.json"
  std::vector<std::pair<std::string, std::vector<long long>>> values;
};

using ParamSet = std::vector<std::pair<std::string, long long>>;

/// Reads a parameter space; throws model::UserError naming the file for a malformed one.
ParamSpace readParamSpace(const std::string& path);

/// The built-in space (validate/params/default.json as compiled into ptxmm).
ParamSpace defaultParamSpace();

/// One value per parameter, drawn with `seed` (the same seed gives the same set).
ParamSet drawParams(const ParamSpace& space, std::uint64_t seed);

/// {"name": value, ...}
nlohmann::json paramsJson(const ParamSet& set);

/// A space holding exactly `set` (what --tune writes).
nlohmann::json fixedSpaceJson(const ParamSet& set, const std::string& description);

}  // namespace ptxmm::validate
