// Parameter spaces and seeded draws (Params.hpp).
#include "validate/Params.hpp"

#include "model/Diagnostic.hpp"
#include "validate/HarnessSources.hpp"
#include "validate/harness/Layout.h"

namespace ptxmm::validate {

ParamSpace parseParamSpace(const std::string& text, const std::string& source) {
  const model::SourcePos at{source, 1, 1};
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw model::UserError(at, std::string("not a parameter file: ") + e.what());
  }
  if (!j.is_object() || !j.contains("parameters") || !j["parameters"].is_object())
    throw model::UserError(at, "a parameter file is an object with a \"parameters\" object");
  ParamSpace space;
  space.source = source;
  for (const auto& [name, list] : j["parameters"].items()) {
    if (!list.is_array() || list.empty())
      throw model::UserError(at, "parameter \"" + name + "\" must be a non-empty list of integers");
    std::vector<long long> values;
    for (const auto& v : list) {
      if (!v.is_number_integer()) throw model::UserError(at, "parameter \"" + name + "\" has a value that is not an integer");
      values.push_back(v.get<long long>());
    }
    space.values.emplace_back(name, std::move(values));
  }
  return space;
}

ParamSpace defaultParamSpace() { return parseParamSpace(std::string(defaultParams()), "built-in validate/params/default.json"); }

ParamSet drawParams(const ParamSpace& space, std::uint64_t seed) {
  ptxmm_harness::Rng rng(ptxmm_harness::deriveSeed(seed, 0x5eed, 0x9a7a));
  ParamSet set;
  for (const auto& [name, values] : space.values) set.emplace_back(name, values[static_cast<std::size_t>(rng.below(values.size()))]);
  return set;
}

nlohmann::json paramsJson(const ParamSet& set) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : set) j[name] = value;
  return j;
}

nlohmann::json fixedSpaceJson(const ParamSet& set, const std::string& description) {
  nlohmann::json p = nlohmann::json::object();
  for (const auto& [name, value] : set) p[name] = nlohmann::json::array({value});
  return {{"description", description}, {"parameters", p}};
}

}  // namespace ptxmm::validate
