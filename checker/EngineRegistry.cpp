// The table of engines (EngineRegistry.hpp): Z3 is the default (fast on most tests, explains), the explicit
// enumerator the reference.
#include "checker/EngineRegistry.hpp"

#include <algorithm>
#include <stdexcept>

#include "checker/ExplicitEngine.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "checker/z3/Z3Liveness.hpp"

namespace ptxmm::checker {
namespace {

template <class E>
std::unique_ptr<Engine> make(const model::CatModel& model, const EngineOptions& options) {
  return std::make_unique<E>(model, options);
}

const EngineInfo& first(bool EngineInfo::*role) {
  const auto& all = engines();
  return *std::find_if(all.begin(), all.end(), [&](const EngineInfo& e) { return e.*role; });
}

}  // namespace

const std::vector<EngineInfo>& engines() {
  static const std::vector<EngineInfo> table{
      {"z3", false, true, make<Z3Engine>, z3enc::checkLiveness},
      {"explicit", true, false, make<ExplicitEngine>, liveness::checkLiveness},
  };
  return table;
}

std::vector<std::string> engineNames() {
  std::vector<std::string> names;
  for (const auto& e : engines()) names.push_back(e.name);
  return names;
}

const EngineInfo& engineNamed(const std::string& name) {
  if (name.empty()) return engines().front();
  for (const auto& e : engines())
    if (e.name == name) return e;
  throw std::invalid_argument("no engine is called '" + name + "'");
}

const EngineInfo& referenceEngine() { return first(&EngineInfo::reference); }

const EngineInfo& solverEngine() { return first(&EngineInfo::solver); }

}  // namespace ptxmm::checker
