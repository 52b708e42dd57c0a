// Renderings of a TestResult: herd7-compatible text (so herdtools' log tools can read it) and one JSON
// object per test (field names are an interface other tools and later commands rely on).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "checker/Outcome.hpp"

namespace ptxmm::checker {

/// The herd7 block: Test/States/Ok|No/Witnesses/Condition/Observation/Time (plus Unknown/Note lines).
std::string toHerdText(const TestResult& result);

/// The JSON object: name, file, engine, condition{kind,text}, holds, states[{values,satisfies}], executions,
/// positive, negative, witness_unit, seed, status, reason, notes, warnings, flags, races (when searched), liveness
/// {terminates, decided, model, method, hangs[{kind, threads[{thread, how, instruction, file, line, detail}]}],
/// reason} (when checked), explanation {forbidden, minimal_axiom_sets, execution, violations} or {allowed, execution}
/// (--explain), time_ms.
nlohmann::json toJson(const TestResult& result);

/// The line saying what the `Test NAME Allowed|Required` header and Ok/No mean (herd's convention), printed once
/// after a text report.
std::string testHeaderKey();

/// One `Hang` line: the kind, the progress model, and each stuck thread with where and why.
std::string hangLine(const liveness::Hang& hang, const std::string& model);

/// One line naming a race: its kind and both instructions with their positions.
std::string raceLine(const Race& race);

/// "ok", "unknown" or "error".
std::string statusName(Status status);

/// "P0:r0=1 x=2": the canonical text of a final state (expectation files pin states in this form).
std::string stateText(const TestResult& result, const FinalState& state);

/// `name` as a file name: every character other than a letter, a digit, '-', '.' or '+' becomes '_'.
std::string fileStem(const std::string& name);

}  // namespace ptxmm::checker
