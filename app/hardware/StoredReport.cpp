// `ptxmm validate --compare REPORT`: the hardware histograms of a stored report (cases/hw/*.json) against the
// current model, without a GPU (StoredReport.hpp). A state observed on hardware that the model forbids now is a
// finding (exit 1) whatever the report said when it was written; an `allowed` flag that changed is printed.
#include "app/hardware/StoredReport.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "model/TextFile.hpp"
#include "validate/Pipeline.hpp"

namespace fs = std::filesystem;

namespace ptxmm::app {

namespace {

using namespace validate;

// The tests of a report: {"tests": [...]}, a bare array, or one object per line (--json output).
std::vector<nlohmann::json> readStoredTests(const std::string& path) {
  const auto read = model::readTextFile(path);
  if (!read) throw model::UserError({path, 0, 0}, "cannot read the report");
  const std::string& text = *read;
  std::vector<nlohmann::json> tests;
  try {
    const auto j = nlohmann::json::parse(text);
    const auto& list = j.is_object() && j.contains("tests") ? j["tests"] : j;
    if (list.is_array()) tests.assign(list.begin(), list.end());
    else tests.push_back(list);
  } catch (const nlohmann::json::parse_error&) {
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
      ++number;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        tests.push_back(nlohmann::json::parse(line));
      } catch (const nlohmann::json::parse_error& e) {
        throw model::UserError({path, number, 1}, std::string("not a JSON report: ") + e.what());
      }
    }
  }
  return tests;
}

// The litmus file of a stored test: as written, or relative to the report's folder and its parents.
std::string locate(const std::string& file, const std::string& report) {
  if (fs::exists(file)) return file;
  for (fs::path dir = fs::absolute(report).parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / file)) return (dir / file).string();
    if (dir == dir.root_path()) break;
  }
  return file;
}

}  // namespace

ExitCode compareReport(const std::string& reportPath, const HardwareOptions& o) {
  const model::CatModel cat = model::parseCatFile(o.modelFile);
  const auto tests = readStoredTests(reportPath);
  ExitCode code = ExitCode::Ok;
  std::size_t consistent = 0, forbidden = 0, other = 0, skipped = 0;
  for (const auto& t : tests) {
    const std::string name = t.value("name", std::string("?"));
    if (!t.contains("histogram")) {
      std::cout << name << ": no hardware histogram (status " << t.value("status", std::string("?")) << "), skipped\n";
      ++skipped;
      continue;
    }
    const std::string stored = t.value("file", std::string());
    const std::string file = locate(stored, reportPath);
    if (stored.starts_with("../") && !fs::exists(file)) {  // a peer corpus beside the checkout (absent in a fresh clone)
      std::cout << name << ": " << stored << " not found (a corpus outside the repository), skipped\n";
      ++skipped;
      continue;
    }
    try {
      const ModelCheck m = checkModel(cat, frontend::parseLitmusFile(file), o.run);
      std::vector<std::pair<Values, std::uint64_t>> histogram;
      std::vector<bool> storedAllowed;
      for (const auto& h : t.at("histogram")) {
        Values v;
        for (const auto& key : m.view.keys) {
          if (!h.at("values").contains(key))
            throw model::UserError({reportPath, 0, 0}, name + ": the stored state " + h.at("values").dump() + " has no value for " + key +
                                                          " (the test's observed values changed since the report)");
          v.push_back(h.at("values").at(key).get<std::int64_t>());
        }
        histogram.emplace_back(v, h.at("count").get<std::uint64_t>());
        storedAllowed.push_back(h.value("allowed", true));
      }
      const double seconds = t.value("seconds", 0.0);
      const Comparison c = compare(m.view, histogram, seconds, [&](const Values& v) { return m.satisfies(v); });
      std::cout << name << " (" << file << "): " << c.histogram.size() << " observed states in " << c.classified << " instances; model "
                << m.view.allowed.size() << " states" << (m.view.complete ? "" : " (INCOMPLETE: " + m.view.status + ")")
                << "; observed and allowed " << c.histogram.size() - c.forbiddenStates << ", allowed but unseen " << c.allowedUnseen.size()
                << ", observed but FORBIDDEN " << c.forbiddenStates << "\n";
      for (std::size_t k = 0; k < histogram.size(); ++k) {
        const bool now = std::find(m.view.allowed.begin(), m.view.allowed.end(), histogram[k].first) != m.view.allowed.end();
        if (!now && m.view.complete)
          std::cout << "  FORBIDDEN: " << stateText(m.view.keys, histogram[k].first) << " seen " << histogram[k].second << " times\n";
        if (now != storedAllowed[k])
          std::cout << "  changed: " << stateText(m.view.keys, histogram[k].first) << " was stored as "
                    << (storedAllowed[k] ? "allowed" : "forbidden") << ", the model now " << (now ? "allows" : "forbids") << " it\n";
      }
      if (c.forbiddenStates) {
        ++forbidden;
        code = worst(code, ExitCode::ExpectationFailed);
      } else if (!m.view.complete) {
        ++other;
        code = worst(code, ExitCode::Unknown);
      } else {
        ++consistent;
      }
    } catch (const model::UserError& e) {
      ++other;
      std::cerr << e.what() << "\n";
      code = worst(code, ExitCode::UserError);
    }
  }
  std::cout << tests.size() << " tests: " << consistent << " consistent with the model, " << forbidden
            << " with observed forbidden states, " << other << " not compared, " << skipped << " skipped" << std::endl;
  return code;
}

}  // namespace ptxmm::app
