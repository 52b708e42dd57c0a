// Comparison with the model and the text and JSON renderings of a hardware report (Report.hpp).
#include "validate/Report.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "validate/Statistics.hpp"

namespace ptxmm::validate {

using Quantifier = frontend::Condition::Quantifier;

std::string quantifierWord(Quantifier q) {
  switch (q) {
    case Quantifier::Exists: return "exists";
    case Quantifier::NotExists: return "~exists";
    case Quantifier::Forall: return "forall";
  }
  return "exists";
}

std::string stateText(const std::vector<std::string>& keys, const Values& values) {
  std::string s;
  for (std::size_t k = 0; k < keys.size() && k < values.size(); ++k) s += keys[k] + "=" + std::to_string(values[k]) + "; ";
  if (!s.empty()) s.pop_back();
  return s;
}

Comparison compare(const ModelView& model, const std::vector<std::pair<Values, std::uint64_t>>& histogram, double seconds,
                   const std::function<bool(const Values&)>& satisfies) {
  Comparison c;
  std::map<Values, std::uint64_t> merged;
  for (const auto& [values, count] : histogram) merged[values] += count;
  for (const auto& [values, count] : merged) {
    Outcome o;
    o.values = values;
    o.count = count;
    o.allowed = std::find(model.allowed.begin(), model.allowed.end(), values) != model.allowed.end();
    o.satisfies = satisfies(values);
    o.rate = ratePerSecond(count, seconds);
    o.reproducibility = reproducibility(count);
    c.classified += count;
    (o.satisfies ? c.positive : c.negative) += count;
    if (!o.allowed && model.complete) {
      c.forbiddenInstances += count;
      ++c.forbiddenStates;
    }
    c.histogram.push_back(std::move(o));
  }
  for (const auto& a : model.allowed)
    if (!merged.count(a)) c.allowedUnseen.push_back(a);
  switch (model.quantifier) {
    case Quantifier::Exists: c.validated = c.positive > 0; break;
    case Quantifier::NotExists: c.validated = c.positive == 0; break;
    case Quantifier::Forall: c.validated = c.negative == 0; break;
  }
  return c;
}

namespace {

std::string number(double v, const char* format = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string verdictWord(Verdict v) {
  switch (v) {
    case Verdict::Consistent: return "consistent";
    case Verdict::ForbiddenObserved: return "forbidden-observed";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::CompiledOnly: return "compiled";
    case Verdict::Refused: return "refused";
    case Verdict::Error: return "error";
  }
  return "error";
}

nlohmann::json valuesObject(const std::vector<std::string>& keys, const Values& values) {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t k = 0; k < keys.size() && k < values.size(); ++k) j[keys[k]] = values[k];
  return j;
}

}  // namespace

std::string toText(const TestReport& r) {
  std::ostringstream os;
  if (r.verdict == Verdict::Refused || r.verdict == Verdict::Error) {
    os << "Test " << r.name << " " << (r.verdict == Verdict::Refused ? "REFUSED" : "ERROR") << "\n" << r.reason << "\n";
    return os.str();
  }
  if (r.verdict == Verdict::CompiledOnly) {
    os << "Test " << r.name << " compiled: " << r.sassAnchors << " memory instructions and barriers verified in the SASS (hash "
       << r.sassHash << ", nvcc " << r.nvccVersion << ")\n";
    for (const auto& n : r.sassNotes) os << "Note: " << n << "\n";
    os << "Program: " << r.workDir << "/test.cu\n";
    if (r.sibling)
      os << "Sibling " << r.sibling->name << " (" << r.sibling->origin << "): "
         << (r.sibling->problem.empty() ? "compiled and checked" : r.sibling->problem) << "\n";
    return os.str();
  }
  const auto& c = *r.comparison;
  const auto& run = *r.run;
  os << "Test " << r.name << (r.model.quantifier == Quantifier::Forall ? " Required" : " Allowed") << "\n";
  os << "Histogram (" << c.histogram.size() << " states)\n";
  for (const auto& o : c.histogram) {
    std::string count = std::to_string(o.count);
    if (count.size() < 8) count.resize(8, ' ');
    os << count << (o.satisfies ? "*>" : ":>") << stateText(r.model.keys, o.values) << "\n";
  }
  os << (c.validated ? "Ok" : "No") << "\n\nWitnesses\nPositive: " << c.positive << ", Negative: " << c.negative << "\n";
  os << "Condition " << quantifierWord(r.model.quantifier) << " (" << r.model.conditionText << ") is "
     << (c.validated ? "validated" : "NOT validated") << "\n";
  os << "Hash=" << r.sassHash << "\n";
  os << "Observation " << r.name << " " << (c.positive == 0 ? "Never" : c.negative == 0 ? "Always" : "Sometimes") << " "
     << c.positive << " " << c.negative << "\n";
  os << "Time " << r.name << " " << number(run.seconds, "%.2f") << "\n\n";

  os << "Instances " << run.instances << " in " << number(run.seconds, "%.2f") << " s ("
     << number(ratePerSecond(run.instances, run.seconds) / 1e6, "%.1f") << " M/s); capped " << run.capped << ", start-barrier timeouts "
     << run.barrierTimeouts << (run.missing ? ", NOT PLAYED " + std::to_string(run.missing) : "")
     << (run.lost ? ", NOT RECORDED " + std::to_string(run.lost) : "") << "\n";
  os << "Device " << run.device.value("name", std::string("?")) << ", SM clock " << run.device.value("sm_clock_khz", 0) / 1000
     << " MHz, driver " << run.device.value("driver_version", 0) << ", nvcc " << r.nvccVersion << ", seed " << run.seed << "\n";
  os << "Model: " << r.model.allowed.size() << " states allowed" << (r.model.complete ? "" : " (INCOMPLETE: " + r.model.status + ")")
     << "; observed and allowed " << c.histogram.size() - c.forbiddenStates << ", allowed but unseen " << c.allowedUnseen.size()
     << ", observed but FORBIDDEN " << c.forbiddenStates << "\n";
  for (const auto& u : c.allowedUnseen) os << "  unseen: " << stateText(r.model.keys, u) << "\n";
  for (const auto& o : c.histogram)
    if (!o.allowed && r.model.complete) os << "  FORBIDDEN: " << stateText(r.model.keys, o.values) << " seen " << o.count << " times\n";
  for (const auto& e : run.forbiddenExamples)
    os << "  replay: instance " << e.value("instance", 0) << ", launch " << e.value("launch", 0) << ", thread map "
       << e.value("thread_map", 0) << ", location map " << e.value("location_map", 0) << ", seed " << run.seed << "\n";
  os << "Rates:\n";
  for (const auto& o : c.histogram)
    os << "  " << stateText(r.model.keys, o.values) << "  " << number(o.rate) << "/s  reproducibility " << number(o.reproducibility, "%.4g")
       << "\n";
  if (r.sibling) {
    const auto& s = *r.sibling;
    os << "Sibling " << s.name << " (" << s.origin << "): ";
    if (!s.problem.empty()) os << s.problem;
    else os << (s.seen ? "target seen " : "target NOT seen ") << s.targetCount << " times in " << s.instances << " instances ("
            << number(ratePerSecond(s.targetCount, s.seconds)) << "/s)";
    os << "\n";
  }
  for (const auto& n : r.sassNotes) os << "Note: " << n << "\n";
  if (!r.reason.empty()) os << "Verdict: " << verdictWord(r.verdict) << ": " << r.reason << "\n";
  os << "Replay: " << r.replay << "\n";
  return os.str();
}

nlohmann::json toJson(const TestReport& r, int exitCode) {
  nlohmann::json j = {{"name", r.name},
                      {"file", r.file},
                      {"status", verdictWord(r.verdict)},
                      {"exit_code", exitCode},
                      {"reason", r.reason},
                      {"keys", r.model.keys},
                      {"condition", {{"kind", quantifierWord(r.model.quantifier)}, {"text", r.model.conditionText}}},
                      {"model", {{"status", r.model.status}, {"complete", r.model.complete}, {"states", r.model.allowed.size()}}},
                      {"sass_hash", r.sassHash},
                      {"sass_verified_instructions", r.sassAnchors},
                      {"sass_notes", r.sassNotes},
                      {"replay", r.replay}};
  if (r.run && r.comparison) {
    const auto& run = *r.run;
    const auto& c = *r.comparison;
    nlohmann::json hist = nlohmann::json::array();
    for (const auto& o : c.histogram)
      hist.push_back({{"values", valuesObject(r.model.keys, o.values)},
                      {"count", o.count},
                      {"allowed", o.allowed},
                      {"satisfies", o.satisfies},
                      {"rate_per_second", o.rate},
                      {"reproducibility", o.reproducibility}});
    nlohmann::json unseen = nlohmann::json::array();
    for (const auto& u : c.allowedUnseen) unseen.push_back(valuesObject(r.model.keys, u));
    nlohmann::json examples = nlohmann::json::array();
    for (const auto& e : run.forbiddenExamples) {
      nlohmann::json x = e;
      if (e.contains("values")) x["values"] = valuesObject(r.model.keys, e["values"].get<Values>());
      x["seed"] = run.seed;
      examples.push_back(x);
    }
    j.update({{"instances", run.instances},
              {"seconds", run.seconds},
              {"instances_per_second", ratePerSecond(run.instances, run.seconds)},
              {"launches", run.launches},
              {"histogram", hist},
              {"observed_forbidden", c.forbiddenInstances},
              {"observed_forbidden_states", c.forbiddenStates},
              {"allowed_unseen", c.allowedUnseen.size()},
              {"allowed_unseen_states", unseen},
              {"validated", c.validated},
              {"observation", c.positive == 0 ? "Never" : c.negative == 0 ? "Always" : "Sometimes"},
              {"positive", c.positive},
              {"negative", c.negative},
              {"capped", run.capped},
              {"missing", run.missing},
              {"barrier_timeouts", run.barrierTimeouts},
              {"lost", run.lost},
              {"forbidden_examples", examples},
              {"seed", run.seed},
              {"params", run.params},
              {"geometry", run.geometry},
              {"environment",
               {{"gpu", run.device.value("name", std::string())},
                {"compute_capability", run.device.value("compute_capability", std::string())},
                {"sm_clock_khz", run.device.value("sm_clock_khz", 0)},
                {"driver_version", run.device.value("driver_version", 0)},
                {"cuda_runtime_version", run.device.value("runtime_version", 0)},
                {"multiprocessors", run.device.value("multiprocessors", 0)},
                {"nvcc", r.nvccVersion}}}});
  } else {
    j["environment"] = {{"nvcc", r.nvccVersion}};
  }
  if (r.sibling)
    j["sibling"] = {{"name", r.sibling->name},        {"origin", r.sibling->origin},    {"seen", r.sibling->seen},
                    {"target_count", r.sibling->targetCount}, {"instances", r.sibling->instances}, {"seconds", r.sibling->seconds},
                    {"problem", r.sibling->problem}};
  j["sibling_required"] = r.siblingRequired;
  return j;
}

}  // namespace ptxmm::validate
