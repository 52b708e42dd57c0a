// Expectation files (CSV, nvlitmus directories), comparison of results with expectations, and the parallel
// suite loop (Suite.hpp).
#include "checker/Suite.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "checker/ResultPrinter.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

namespace ptxmm::checker {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(trim(cur));
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::vector<std::string> sortedStates(const std::vector<std::string>& s) {
  std::vector<std::string> out = s;
  std::sort(out.begin(), out.end());
  return out;
}

// Why a result does not meet its expectation; empty when it does.
std::string mismatch(const Expectation& e, const TestResult& r) {
  if (r.status == Status::Error) return r.reason;
  if (r.status == Status::Unknown) return "UNKNOWN: " + r.reason;
  if (r.holds != e.holds)
    return "the condition's claim " + std::string(r.holds ? "holds" : "does not hold") + " (" +
           quantifierName(r.quantifier) + "), expected " + (e.holds ? "to hold" : "not to hold");
  if (e.racy && r.racesChecked && *e.racy != !r.races.empty())
    return std::string(r.races.empty() ? "race-free" : "racy (" + raceLine(r.races.front()) + ")") + ", expected " +
           (*e.racy ? "a race" : "race-free");
  if (!e.states) return "";
  std::vector<std::string> got;
  for (const auto& s : r.states) got.push_back(stateText(r, s));
  const auto want = sortedStates(*e.states);
  got = sortedStates(got);
  if (got == want) return "";
  std::string msg = "permitted states differ:";
  for (const auto& s : want)
    if (!std::binary_search(got.begin(), got.end(), s)) msg += " missing {" + s + "}";
  for (const auto& s : got)
    if (!std::binary_search(want.begin(), want.end(), s)) msg += " unexpected {" + s + "}";
  return msg;
}

}  // namespace

std::vector<Expectation> readExpectations(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw model::UserError({file, 0, 0}, "cannot read expectations file");
  std::vector<Expectation> out;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto fields = split(t, ',');
    const model::SourcePos pos{file, lineNo, 1};
    if (fields.size() < 2 || fields.size() > 4 || fields[0].empty())
      throw model::UserError(pos, "expected 'path,1|0' or 'path,1|0,state;state;...[,race|race-free]'");
    if (fields[1] != "0" && fields[1] != "1")
      throw model::UserError({file, lineNo, static_cast<int>(line.find(',')) + 2}, "expected 1 or 0 after the path");
    Expectation e{fields[0], fields[1] == "1", std::nullopt, std::nullopt, pos, nullptr};
    if (fields.size() >= 3 && !(fields.size() == 4 && fields[2].empty())) {
      e.states.emplace();
      if (!fields[2].empty())
        for (const auto& s : split(fields[2], ';')) e.states->push_back(s);
    }
    if (fields.size() == 4) {
      if (fields[3] != "race" && fields[3] != "race-free")
        throw model::UserError({file, lineNo, static_cast<int>(line.rfind(',')) + 2}, "expected 'race' or 'race-free'");
      e.racy = fields[3] == "race";
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<Expectation> readNvLitmusExpectations(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const bool single = fs::is_regular_file(path, error);
  std::vector<fs::path> files;
  if (single) {
    files.emplace_back(path);
  } else if (fs::is_directory(path, error)) {
    for (const auto& entry : fs::recursive_directory_iterator(path, error))
      if (entry.is_regular_file(error) && entry.path().extension() == ".test") files.push_back(entry.path());
  }
  if (files.empty()) throw model::UserError({path, 0, 0}, "no nvlitmus .test file here");
  std::sort(files.begin(), files.end());
  const fs::path root = single ? fs::path(path).parent_path() : fs::path(path);
  std::vector<Expectation> out;
  for (const auto& file : files) {
    const std::string relative = single ? file.filename().string() : file.lexically_relative(root).string();
    try {
      for (auto& test : frontend::parseNvLitmusFile(file.string())) {
        Expectation e;
        e.path = relative + (test.row ? "#" + std::to_string(test.row) : "");
        e.holds = test.expectHolds;
        e.pos = test.program.condition.pos;
        e.program = std::make_shared<const frontend::Program>(std::move(test.program));
        out.push_back(std::move(e));
      }
    } catch (const model::UserError&) {
      // Without a program the suite reads the file itself, and reports the same diagnostic as its failure.
      Expectation e;
      e.path = relative;
      e.holds = true;
      e.pos = {file.string(), 0, 0};
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<KnownDifference> readKnownDifferences(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw model::UserError({file, 0, 0}, "cannot read exceptions file");
  std::vector<KnownDifference> out;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto space = t.find_first_of(" \t");
    if (space == std::string::npos)
      throw model::UserError({file, lineNo, 1}, "expected 'path reason' (the reason is mandatory)");
    out.push_back({t.substr(0, space), trim(t.substr(space))});
  }
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

std::vector<Expectation> shardOf(const std::vector<Expectation>& all, int shard, int shards) {
  std::vector<Expectation> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shards)) == shard - 1) out.push_back(all[i]);
  return out;
}

std::vector<SuiteEntry> runSuite(const model::CatModel& model, const std::vector<Expectation>& expectations,
                                 const SuiteOptions& options,
                                 const std::function<void(const SuiteEntry&, std::size_t)>& onDone) {
  std::vector<SuiteEntry> entries(expectations.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex report;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < expectations.size();) {
      SuiteEntry& entry = entries[i];
      entry.expectation = expectations[i];
      const std::string path = options.root.empty() ? entry.expectation.path : options.root + "/" + entry.expectation.path;
      RunOptions run = options.run;
      run.z3.listStates = entry.expectation.states.has_value();  // otherwise one query decides the claim
      run.limits.races = entry.expectation.racy.has_value();
      entry.result = entry.expectation.program ? checkProgram(model, *entry.expectation.program, run)
                                               : checkFile(model, path, run);
      const std::string why = mismatch(entry.expectation, entry.result);
      const auto known = std::find_if(options.knownDifferences.begin(), options.knownDifferences.end(),
                                      [&](const KnownDifference& k) { return k.path == entry.expectation.path; });
      if (known != options.knownDifferences.end() && entry.result.status == Status::Ok) {
        entry.verdict = why.empty() ? Verdict::StaleDifference : Verdict::KnownDifference;
        entry.explanation = why.empty() ? "listed as a known difference but agrees now: " + known->reason
                                        : known->reason + " (" + why + ")";
      } else {
        entry.verdict = why.empty() ? Verdict::Pass : Verdict::Fail;
        entry.explanation = why;
      }
      std::lock_guard lock(report);
      onDone(entry, ++done);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 1; j < std::max(1, options.jobs); ++j) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return entries;
}

}  // namespace ptxmm::checker
