// The interface both engines implement: decide which final states a cat model permits for an unrolled
// program, with honest limits (a timeout or a size limit gives status Unknown, never a partial answer that
// looks complete).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "checker/Outcome.hpp"
#include "model/Deadline.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker {

/// What an engine is asked for and within which limits. An engine ignores what it has no use for (the
/// explicit engine always lists every state and has no solver seed); EngineRegistry.hpp says which does what.
struct EngineOptions {
  double timeoutSeconds = 0;          // 0: no timeout; counted from the engine's start
  model::Deadline deadline;           // also stop here (the whole test's --timeout, set by checkProgram)
  std::uint64_t maxCandidates = 0;    // explicit engine: candidate executions to examine at most (0: no limit)
  bool races = false;                 // also find every pair of racing instructions (RaceFinder.hpp)
  unsigned seed = 0;                  // solver engines: the random seed; results must not depend on it
  bool crossCheck = false;            // solver engines: re-decide every model with the explicit evaluator (fails loudly)
  bool listStates = true;             // solver engines: false decides the condition's claim with one query, no states
  bool explain = false;               // solver engines: find the axioms forbidding the outcome the condition asks about
};

/// When an engine stops: `options.deadline` or its own --timeout from now, whichever comes first.
inline model::Deadline engineDeadline(const EngineOptions& options) {
  return options.deadline.earliest(model::Deadline::after(options.timeoutSeconds));
}

class Engine {
 public:
  virtual ~Engine() = default;
  /// Every permitted final state of `graph` (unrolled from `program`) under the engine's model.
  virtual TestResult run(const frontend::Program& program, const model::EventGraph& graph) = 0;
  /// The name it is registered under (EngineRegistry.hpp).
  virtual std::string name() const = 0;
};

}  // namespace ptxmm::checker
