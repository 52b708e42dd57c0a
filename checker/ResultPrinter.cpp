// herd7 text and JSON renderings of results (ResultPrinter.hpp).
#include "checker/ResultPrinter.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace ptxmm::checker {
namespace {

std::string stateLine(const TestResult& r, const FinalState& s) {
  std::string out;
  for (std::size_t k = 0; k < r.keys.size(); ++k) out += r.keys[k] + "=" + std::to_string(s.values[k]) + "; ";
  if (!out.empty()) out.pop_back();
  return out;
}

std::string conditionLine(const TestResult& r) {
  const std::string& t = r.conditionText;
  const bool wrapped = t.size() >= 2 && t.front() == '(' && t.back() == ')';
  return quantifierName(r.quantifier) + " " + (wrapped ? t : "(" + t + ")");
}

std::string where(const RaceAccess& a) {
  return a.thread + " " + a.instruction + " (" + a.pos.file + ":" + std::to_string(a.pos.line) + ")";
}

nlohmann::json accessJson(const RaceAccess& a) {
  return {{"thread", a.thread}, {"instruction", a.instruction}, {"line", a.pos.line}};
}

std::string stuckText(const liveness::StuckThread& s) {
  std::string out = s.thread + " " + s.how;
  if (!s.instruction.empty()) out += " at " + s.pos.file + ":" + std::to_string(s.pos.line) + " (" + s.instruction + ")";
  return out + ": " + s.detail;
}

nlohmann::json livenessJson(const liveness::LivenessResult& l) {
  nlohmann::json hangs = nlohmann::json::array();
  for (const auto& h : l.hangs) {
    nlohmann::json threads = nlohmann::json::array();
    for (const auto& s : h.threads)
      threads.push_back({{"thread", s.thread}, {"how", s.how}, {"instruction", s.instruction}, {"file", s.pos.file},
                         {"line", s.pos.line}, {"detail", s.detail}});
    hangs.push_back({{"kind", h.kind}, {"threads", threads}});
  }
  nlohmann::json j{{"terminates", l.terminates}, {"decided", l.decided}, {"model", l.model}, {"method", l.method},
                   {"hangs", hangs}};
  if (!l.decided) j["reason"] = l.reason;
  return j;
}

}  // namespace

std::string testHeaderKey() {
  return "Key: as in herd, `Test NAME Allowed` heads a test whose condition is `exists P` or `~exists P`, `Required` "
         "one whose condition is `forall P`; Ok means its claim holds: some permitted execution ends with P true "
         "(exists), none does (~exists), every one does (forall); No means it does not.";
}

std::string hangLine(const liveness::Hang& hang, const std::string& model) {
  std::string out = "Hang " + hang.kind + " (progress model " + model + "): ";
  for (std::size_t k = 0; k < hang.threads.size(); ++k) out += (k ? "; " : "") + stuckText(hang.threads[k]);
  return out;
}

std::string stateText(const TestResult& r, const FinalState& s) {
  std::string out;
  for (std::size_t k = 0; k < r.keys.size(); ++k) {
    if (k) out += ' ';
    out += r.keys[k] + "=" + std::to_string(s.values[k]);
  }
  return out;
}

std::string fileStem(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '+' ? c : '_';
  return out;
}

std::string raceLine(const Race& race) { return race.kind + ": " + where(race.first) + " <-> " + where(race.second); }

std::string statusName(Status status) {
  switch (status) {
    case Status::Ok: return "ok";
    case Status::Unknown: return "unknown";
    case Status::Error:
    case Status::Internal: return "error";
  }
  return "error";
}

std::string toHerdText(const TestResult& r) {
  std::ostringstream out;
  const bool required = r.quantifier == frontend::Condition::Quantifier::Forall;
  out << "Test " << r.name << (required ? " Required" : " Allowed") << "\n";
  // A stopped run lists what it found before it stopped; neither the list nor the observation is conclusive.
  const bool complete = r.status == Status::Ok;
  out << "States " << r.states.size() << (complete ? "" : " (incomplete: the run stopped, see Reason)") << "\n";
  for (const auto& s : r.states) out << stateLine(r, s) << "\n";
  // A hang is said before anything that could read as a pass.
  if (r.liveness) {
    for (const auto& h : r.liveness->hangs) out << hangLine(h, r.liveness->model) << "\n";
    if (!r.liveness->decided)
      out << "Liveness unknown (progress model " << r.liveness->model << "): " << r.liveness->reason << "\n";
  }
  if (r.status == Status::Ok) {
    out << (r.holds ? "Ok" : "No") << "\n";
  } else {
    out << "Unknown\n";
    out << "Reason: " << r.reason << "\n";
  }
  for (const auto& n : r.notes) out << "Note: " << n << "\n";
  for (const auto& flag : r.flags) out << "Flag " << flag << "\n";
  if (r.seed) out << "Seed " << *r.seed << "\n";
  out << "Witnesses\n";
  out << "Positive: " << r.positive << " Negative: " << r.negative << "\n";
  out << "Condition " << conditionLine(r) << "\n";
  const char* observation = !complete            ? "Unknown"
                            : r.positive == 0    ? "Never"
                            : r.negative == 0    ? "Always"
                                                 : "Sometimes";
  out << "Observation " << r.name << " " << observation << " " << r.positive << " " << r.negative << "\n";
  if (r.explanation) {
    const auto& e = *r.explanation;
    out << "Explanation: " << e.targetText << (e.allowed ? " is allowed" : " is forbidden");
    if (e.allowed) {
      out << "; an execution the model permits that reaches it (what each read reads from, then the coherence "
             "order):\n"
          << e.execution;
    } else if (e.minimalSets.empty()) {
      out << " even with every axiom removed: no candidate execution of the program has this outcome\n";
    } else {
      out << "; smallest sets of axioms whose removal permits it:";
      for (const auto& set : e.minimalSets) {
        out << " {";
        for (std::size_t k = 0; k < set.size(); ++k) out << (k ? ", " : "") << set[k];
        out << "}";
      }
      out << "\n  candidate execution (consistent once the first set is removed):\n" << e.execution;
      for (const auto& v : e.violations) {
        out << "  " << v.check << " (" << v.expression << ") rejects the " << v.shape << " " << v.steps << "\n";
        for (const auto& d : v.detail) out << "    " << d << "\n";
      }
    }
  }
  if (r.racesChecked) {
    out << "Races " << r.races.size() << (r.races.empty() ? " (race-free)" : "") << "\n";
    for (const auto& race : r.races) out << "  " << raceLine(race) << "\n    fix: " << race.fix << "\n";
  }
  char time[32];
  std::snprintf(time, sizeof time, "%.2f", r.seconds);
  out << "Time " << r.name << " " << time << "\n";
  return out.str();
}

nlohmann::json toJson(const TestResult& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["file"] = r.file;
  j["engine"] = r.engine;
  j["condition"] = {{"kind", quantifierName(r.quantifier)}, {"text", r.conditionText}};
  j["holds"] = r.holds;
  j["states"] = nlohmann::json::array();
  for (const auto& s : r.states) {
    nlohmann::json values = nlohmann::json::object();
    for (std::size_t k = 0; k < r.keys.size(); ++k) values[r.keys[k]] = s.values[k];
    j["states"].push_back({{"values", values}, {"satisfies", s.satisfies}});
  }
  // The Z3 engine counts states, not executions: it reports no execution count rather than a wrong one.
  j["executions"] = r.countsExecutions ? nlohmann::json(r.executions()) : nlohmann::json(nullptr);
  j["positive"] = r.positive;
  j["negative"] = r.negative;
  j["witness_unit"] = r.countsExecutions ? "executions" : "states";
  if (r.seed) j["seed"] = *r.seed;
  j["status"] = statusName(r.status);
  if (r.status != Status::Ok) j["reason"] = r.reason;
  j["notes"] = r.notes;
  j["warnings"] = r.warnings;
  j["flags"] = r.flags;
  if (r.explanation) {
    const auto& e = *r.explanation;
    nlohmann::json violations = nlohmann::json::array();
    for (const auto& v : e.violations)
      violations.push_back({{"check", v.check}, {"expression", v.expression}, {"shape", v.shape}, {"steps", v.steps},
                            {"detail", v.detail}});
    if (e.allowed)
      j["explanation"] = {{"allowed", e.targetText}, {"execution", e.execution}};
    else
      j["explanation"] = {{"forbidden", e.targetText}, {"minimal_axiom_sets", e.minimalSets},
                          {"execution", e.execution}, {"violations", violations}};
  }
  if (r.racesChecked) {
    j["races"] = nlohmann::json::array();
    for (const auto& race : r.races)
      j["races"].push_back({{"kind", race.kind}, {"first", accessJson(race.first)}, {"second", accessJson(race.second)},
                            {"fix", race.fix}});
  }
  if (r.liveness) j["liveness"] = livenessJson(*r.liveness);
  j["time_ms"] = r.seconds * 1000.0;
  return j;
}

}  // namespace ptxmm::checker
