// The interface both engines implement: decide which final states a cat model permits for an unrolled
// program, with honest limits (a timeout or a size limit gives status Unknown, never a partial answer that
// looks complete).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "checker/Outcome.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker {

struct EngineOptions {
  double timeoutSeconds = 0;          // 0: no timeout
  std::uint64_t maxCandidates = 0;    // explicit engine: candidate executions to examine at most (0: no limit)
  bool races = false;                 // also find every pair of racing instructions (RaceFinder.hpp)
};

class Engine {
 public:
  virtual ~Engine() = default;
  /// Every permitted final state of `graph` (unrolled from `program`) under the engine's model.
  virtual TestResult run(const frontend::Program& program, const model::EventGraph& graph) = 0;
  /// "explicit" or "z3".
  virtual std::string name() const = 0;
};

}  // namespace ptxmm::checker
