// Why a check of the model fails on one execution, as something a person can follow: the cycle (acyclic),
// the event related to itself (irreflexive) or the pair (empty) that violates it, each edge decomposed along
// the check's expression into named steps (`e6 -fr-> e3 -cause-> e6`), and each named step flattened down to
// base relations with the definitions it went through (`e3 -po-> e4 [cause > ppbc > C1 > bc]`).
#pragma once

#include <string>
#include <vector>

#include "model/Evaluator.hpp"

namespace ptxmm::checker {

struct Step {
  std::size_t from;
  std::size_t to;
  std::string relation;           // a base relation, a definition or a printed sub-expression
  std::vector<std::string> via;   // definitions the step was found through, outermost first
};

struct Violation {
  std::string check;       // the check's name
  std::string expression;  // its expression, printed
  std::string shape;       // "cycle", "self-loop", "pair", "element" or "negated"
  std::vector<Step> steps;                // the violation along the check's expression
  std::vector<std::vector<Step>> detail;  // per step: its path through base relations
};

/// Why check `index` fails on the evaluator's current candidate (the check must fail there).
Violation findViolation(model::Evaluator& evaluator, std::size_t index);

}  // namespace ptxmm::checker
