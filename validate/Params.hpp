// Stress and geometry parameters of hardware runs as data: a parameter space (validate/params/default.json, or
// the text of a file given with --params) lists the values of each parameter, and a run draws one value per
// parameter with its seed. The generated program receives the drawn set as `--param name=value` arguments.
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

/// Parses the text of a parameter space read from `source`; throws model::UserError naming `source` for a
/// malformed one.
ParamSpace parseParamSpace(const std::string& text, const std::string& source);

/// The built-in space (validate/params/default.json as compiled into ptxmm).
ParamSpace defaultParamSpace();

/// One value per parameter, drawn with `seed` (the same seed gives the same set).
ParamSet drawParams(const ParamSpace& space, std::uint64_t seed);

/// {"name": value, ...}
nlohmann::json paramsJson(const ParamSet& set);

/// A space holding exactly `set` (what --tune writes).
nlohmann::json fixedSpaceJson(const ParamSet& set, const std::string& description);

}  // namespace ptxmm::validate
