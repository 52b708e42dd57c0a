// What a check of one test produces: the permitted final states over the observed registers and locations,
// how many executions reach each, whether the test's condition holds, and the run's status. Both engines fill
// a TestResult; the printers and the suite runner only read it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/Race.hpp"
#include "checker/Witness.hpp"
#include "checker/liveness/LivenessResult.hpp"
#include "frontend/Program.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::checker {

/// A register or location whose final value a test observes.
struct ObservedKey {
  enum class Kind : std::uint8_t { Register, Location };
  Kind kind = Kind::Register;
  int thread = -1;     // Register
  int reg = -1;        // Register: id in the thread's register table
  int physical = -1;   // Location
  std::string name;    // register or location name as written
  std::string display; // "P1:r0" or "x"
};

struct FinalState {
  std::vector<std::int64_t> values;  // in the order of TestResult::keys
  bool satisfies = false;            // the condition's proposition holds in this state
  std::uint64_t executions = 0;      // executions (with their final-value choice) ending in it
  std::optional<Witness> witness;    // one execution ending in it
};

// Error: the input is wrong (a user error); Internal: ptxmm contradicted itself (e.g. the engines disagree).
/// One violated axiom of an explanation, as text.
struct ViolationText {
  std::string check;
  std::string expression;
  std::string shape;                // cycle, self-loop, pair, element
  std::string steps;                // "e6 -fr-> e3 -cause-> e6"
  std::vector<std::string> detail;  // per step, its path through base relations
};

/// Why the model forbids the outcome a condition asks about, or how it reaches it (--explain).
struct Explanation {
  std::string targetText;                            // the proposition: `p` for exists/~exists, `~p` for forall
  bool allowed = false;                              // the model permits it: `witness` is an execution reaching it
  std::vector<std::vector<std::string>> minimalSets;  // forbidden: every smallest set of axioms whose removal permits it
  std::optional<Witness> witness;                    // an execution permitted once the first set is removed, or
                                                     // (allowed) a permitted execution reaching the outcome
  std::string execution;                             // that execution, as text
  std::vector<ViolationText> violations;             // what each axiom it violates rejects (none when allowed)
};

/// One execution drawn for --graph: the file name it should get (without extension) and its DOT text.
struct Drawing {
  std::string file;
  std::string dot;
};

enum class Status : std::uint8_t { Ok, Unknown, Error, Internal };

struct TestResult {
  std::string name;
  std::string file;
  std::string engine;
  frontend::Condition::Quantifier quantifier = frontend::Condition::Quantifier::Exists;
  std::string conditionText;
  std::vector<std::string> keys;
  std::vector<FinalState> states;  // sorted by values
  // Witnesses: the explicit engine counts executions (with their final-value choice) whose final state
  // satisfies the proposition or not; the Z3 engine does not enumerate executions and counts states instead.
  std::uint64_t positive = 0;
  std::uint64_t negative = 0;
  bool countsExecutions = true;
  bool holds = false;              // the condition's claim (exists / ~exists / forall) is true
  Status status = Status::Ok;
  std::string reason;              // why the status is not Ok
  bool resourceLimit = false;      // Unknown because a timeout or a size limit stopped the engine
  std::vector<std::string> notes;  // facts worth telling the user (e.g. no consistent execution)
  std::vector<std::string> warnings;  // `file:line:col: warning:` lines about the input (frontend/NameWarnings.hpp)
  bool noExecution = false;        // Ok, and no candidate execution is consistent: the claim holds or fails vacuously
  std::set<std::string> flags;     // flags of the model raised by some permitted execution
  bool racesChecked = false;       // races were searched (EngineOptions::races)
  std::vector<Race> races;         // one per pair of racing instructions
  std::optional<Explanation> explanation;
  std::optional<unsigned> seed;    // the solver's random seed (Z3 engine)
  std::vector<Drawing> drawings;   // the executions RunOptions::draw asked for (not part of the printed result)
  std::optional<liveness::LivenessResult> liveness;  // whether every execution terminates (RunOptions::liveness)
  double seconds = 0;

  std::uint64_t executions() const { return positive + negative; }
};

/// The keys a test observes: the condition's and the filter's registers and locations plus `locations [...]`,
/// registers first (by thread, then name), then locations by name.
std::vector<ObservedKey> observedKeys(const frontend::Program& program, const model::EventGraph& graph);

/// Evaluates a condition proposition on a final state given as values for `keys`.
bool satisfies(const frontend::CondExpr& e, const std::vector<ObservedKey>& keys,
               const std::vector<std::int64_t>& values);

/// Sets `holds` from the quantifier and the states (a vacuous forall holds, a vacuous exists does not).
void decideCondition(TestResult& result);

/// The outcome a condition asks about, as --explain names it: "(p)" for exists and ~exists, "~(p)" for forall.
std::string explainedTarget(frontend::Condition::Quantifier q, const std::string& text);

/// For --explain on an outcome the model permits: the target and one listed state's execution reaching it; none
/// when no listed state reaches it or the engine kept no execution for it.
std::optional<Explanation> allowedExplanation(const TestResult& result);

/// The quantifier as written: "exists", "~exists" or "forall".
std::string quantifierName(frontend::Condition::Quantifier q);

/// The result of a test that could not be checked because of a user error: status Error, the
/// `file:line:col: error:` diagnostic as the reason.
TestResult errorResult(const std::string& file, const model::UserError& error);

/// Why a run stopped at --timeout, worded the same for both engines ("timeout after 0.2 s").
std::string timeoutReason(double seconds);
/// The reason of every verdict an exhausted memory bound (--max-memory, Z3's own out of memory) made UNKNOWN.
std::string outOfMemoryReason();

/// The note both engines give a test with no consistent terminating execution, worded the same for both.
std::string noExecutionNote();

/// Why a consistent execution cannot be given a final state: it needs the result of a division by zero, which
/// PTX leaves unspecified (model/ValueSemantics.hpp). Worded the same for both engines.
std::string unspecifiedReason();

}  // namespace ptxmm::checker
