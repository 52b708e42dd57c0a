// The engines, looked up by name or by role: the default, the reference (the explicit simulator every other
// engine must agree with) and the solver (it decides a condition's claim with one query and explains forbidden
// outcomes). The rest of ptxmm asks this table and names no engine; EngineRegistry.cpp, where the table is
// written, is the only file that knows the engines' classes, so a new engine is one row there.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checker/Engine.hpp"
#include "checker/liveness/Liveness.hpp"

namespace ptxmm::checker {

struct EngineInfo {
  std::string name;
  bool reference = false;  // the simulator the others are compared with (ptxmm diff, fuzz-diff)
  bool solver = false;     // answers listStates = false with one query, and `explain`
  std::function<std::unique_ptr<Engine>(const model::CatModel&, const EngineOptions&)> make;
  // Its own liveness check (checker/liveness/Liveness.hpp's question, decided by this engine).
  std::function<liveness::LivenessResult(const model::CatModel&, const model::EventGraph&, const liveness::LivenessOptions&)>
      liveness;
};

/// Every engine, the default first.
const std::vector<EngineInfo>& engines();

/// Their names, the default first (for option checking and help).
std::vector<std::string> engineNames();

/// The engine called `name`, or the default for an empty name; throws std::invalid_argument for an unknown one.
const EngineInfo& engineNamed(const std::string& name);

/// The reference engine.
const EngineInfo& referenceEngine();

/// The solver engine.
const EngineInfo& solverEngine();

}  // namespace ptxmm::checker
