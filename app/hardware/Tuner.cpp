// The parameter search (Tuner.hpp).
#include "app/hardware/Tuner.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "app/hardware/CudaWorkbench.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "validate/HardwareRun.hpp"
#include "validate/Pipeline.hpp"
#include "validate/Sibling.hpp"
#include "validate/Statistics.hpp"

namespace fs = std::filesystem;

namespace ptxmm::app {

namespace {

using namespace validate;

struct Subject {
  std::string file;
  ModelCheck model;  // the test run: the file's test, or its allowed sibling
  Build build;
};

// The test to tune on for `file`: itself when the model allows its target, else its first allowed sibling.
std::optional<ModelCheck> tuningTest(const model::CatModel& cat, const std::string& file, const HardwareOptions& o, std::string& why) {
  ModelCheck m = checkModel(cat, frontend::parseLitmusFile(file), o.run);
  if (m.allowsTarget()) return m;
  for (const auto& c : siblingCandidates(m.program)) {
    try {
      ModelCheck s = checkModel(cat, c.program, o.run);
      if (!s.allowsTarget()) continue;
      analyze(s.program, s.view.keys);
      return s;
    } catch (const model::UserError&) {
      continue;
    }
  }
  why = "neither it nor a weakened sibling has an allowed weak outcome";
  return std::nullopt;
}

}  // namespace

ExitCode tuneFiles(const std::vector<std::string>& files, const HardwareOptions& o) {
  const model::CatModel cat = model::parseCatFile(o.modelFile);
  CudaWorkbench bench;
  if (const auto problem = bench.unavailable()) {
    std::cerr << "ptxmm validate --tune: " << *problem << "\n";
    return ExitCode::UserError;
  }
  const ParamSpace space = paramSpace(o);
  const std::string out = outputFolder(o);
  ExitCode code = ExitCode::Ok;
  std::vector<Subject> subjects;
  for (const auto& f : files) {
    try {
      std::string why;
      auto m = tuningTest(cat, f, o, why);
      if (!m) {
        std::cerr << f << ": skipped: " << why << "\n";
        continue;
      }
      const HardwareTest hw = analyze(m->program, m->view.keys);
      Build b = buildHarness(hw, m->view, bench, out + "/tune/" + safeName(m->program.name));
      subjects.push_back({f, std::move(*m), std::move(b)});
    } catch (const model::UserError& e) {
      std::cerr << e.what() << "\n";
      code = worst(code, ExitCode::UserError);
    } catch (const SassRefusal& e) {
      std::cerr << f << ": refused: " << e.what() << "\n";
      code = worst(code, ExitCode::UserError);
    } catch (const ToolFailure& e) {
      std::cerr << e.what() << "\n";
      code = worst(code, ExitCode::InternalError);
    }
  }
  if (subjects.empty()) return worst(code, ExitCode::UserError);

  // Trial t uses seed base + t. A set's score is the mean over tests of its weak rate relative to the best
  // rate any set reached on that test, so that one easy test does not decide alone.
  const std::uint64_t base = o.seed.value_or(1);
  const int trials = std::max(1, o.trials);
  const double budget = std::max(0.2, o.budget / trials);
  std::vector<std::vector<double>> weak(static_cast<std::size_t>(trials), std::vector<double>(subjects.size(), 0));
  std::vector<ParamSet> sets;
  std::printf("%-6s %-40s %14s %14s  %s\n", "seed", "test", "instances/s", "weak/s", "parameters");
  for (int t = 0; t < trials; ++t) {
    const std::uint64_t seed = base + static_cast<std::uint64_t>(t);
    sets.push_back(drawParams(space, seed));
    for (std::size_t s = 0; s < subjects.size(); ++s) {
      const HardwareRun run = runProgram(bench, subjects[s].build.binary, budget, seed, sets.back());
      if (!run.ok) {
        std::printf("%-6llu %-40s run failed: %s\n", static_cast<unsigned long long>(seed), subjects[s].model.program.name.c_str(),
                    run.error.c_str());
        continue;
      }
      std::uint64_t target = 0;
      for (const auto& [values, count] : run.histogram)
        if (subjects[s].model.target(values)) target += count;
      weak[static_cast<std::size_t>(t)][s] = ratePerSecond(target, run.seconds);
      std::printf("%-6llu %-40s %14.4g %14.4g  %s\n", static_cast<unsigned long long>(seed), subjects[s].model.program.name.c_str(),
                  ratePerSecond(run.instances, run.seconds), weak[static_cast<std::size_t>(t)][s], paramsJson(sets.back()).dump().c_str());
    }
  }
  std::vector<double> best(subjects.size(), 0);
  for (const auto& row : weak)
    for (std::size_t s = 0; s < subjects.size(); ++s) best[s] = std::max(best[s], row[s]);
  int winner = 0;
  double top = -1;
  for (int t = 0; t < trials; ++t) {
    double score = 0;
    for (std::size_t s = 0; s < subjects.size(); ++s)
      if (best[s] > 0) score += weak[static_cast<std::size_t>(t)][s] / best[s];
    if (score > top) top = score, winner = t;
  }
  const std::string file = out + "/tuned-params.json";
  fs::create_directories(out);
  std::ofstream(file) << fixedSpaceJson(sets[static_cast<std::size_t>(winner)],
                                        "Found by ptxmm validate --tune (seed " + std::to_string(base + static_cast<std::uint64_t>(winner)) +
                                            ", score " + std::to_string(top) + " over " + std::to_string(subjects.size()) + " tests)")
                             .dump(2)
                      << "\n";
  std::printf("Best: seed %llu, score %.3f of %zu, parameters %s\nWritten: %s (use with --params)\n",
              static_cast<unsigned long long>(base + static_cast<std::uint64_t>(winner)), top, subjects.size(),
              paramsJson(sets[static_cast<std::size_t>(winner)]).dump().c_str(), file.c_str());
  return code;
}

}  // namespace ptxmm::app
