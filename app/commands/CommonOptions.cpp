// The shared options (CommonOptions.hpp).
#include "app/commands/CommonOptions.hpp"

#include <cmath>
#include <map>

#include "app/GraphWriter.hpp"
#include "app/MemoryLimit.hpp"
#include "app/commands/Command.hpp"
#include "checker/EngineRegistry.hpp"

namespace ptxmm::app {
namespace {

// The bundled model of each reading of A6 (mbarrier scopes).
std::string bundledModel(const std::string& reading) {
  return std::string(PTXMM_MODEL_DIR) + (reading == "lenient" ? "/ptx-mbarrier-lenient.cat" : "/ptx.cat");
}

}  // namespace

// A finite number of seconds from 0 (no limit) to a year. CLI11's NonNegativeNumber lets `nan`
// (which compares false with everything, so no limit) and `inf` through; they are refused with the words.
CLI::Validator secondsValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        constexpr double kYear = 365.0 * 24 * 3600;
        double seconds = 0;
        if (!CLI::detail::lexical_cast(text, seconds) || !std::isfinite(seconds) || seconds < 0 || seconds > kYear)
          return "expected a number of seconds from 0 (no limit) to " + std::to_string(static_cast<long>(kYear)) +
                 ", got '" + text + "'";
        return {};
      },
      "SECONDS");
}

std::string defaultModelFile() { return bundledModel("strict"); }

model::CatModel loadModel(CommonOptions& o, std::optional<model::CatModel>& other) {
  applyMemoryLimit(o.maxMemory.empty() ? defaultMemoryLimit() : parseMemoryLimit(o.maxMemory));
  if (!o.graphDir.empty()) {
    requireGraphFolder(o.graphDir);
    o.run.draw = o.show;
  }
  if (!o.model.empty()) return model::parseCatFile(o.model);
  const std::string otherReading = o.mbarrier == "lenient" ? "strict" : "lenient";
  other = model::parseCatFile(bundledModel(otherReading));
  o.run.otherMbarrierReading = &*other;
  o.run.otherMbarrierName = otherReading;
  return model::parseCatFile(bundledModel(o.mbarrier));
}

void addCommonOptions(CLI::App& cmd, CommonOptions& o) {
  o.run.engine = checker::engineNames().front();
  cmd.add_option("--model", o.model, "cat model file (default: the bundled PTX model, model/cat/ptx.cat)");
  cmd.add_option("--mbarrier", o.mbarrier, "reading A6 of mbarrier scopes for the bundled model: strict or lenient")
      ->capture_default_str()
      ->check(CLI::IsMember({"strict", "lenient"}));
  cmd.add_option("--unroll", o.run.unroll, "iterations of each loop per execution")->capture_default_str()->check(CLI::Range(1, 1000));
  cmd.add_option("--engine", o.run.engine, "decision engine")->capture_default_str()->check(CLI::IsMember(checker::engineNames()));
  cmd.add_option("--timeout", o.run.engineOptions.timeoutSeconds,
                 "seconds per test before the verdict is UNKNOWN (0: none; at most a year)")
      ->check(secondsValidator());
  cmd.add_option("--max-candidates", o.run.engineOptions.maxCandidates,
                 "explicit engine: candidate executions per test before the verdict is UNKNOWN (0: none)");
  cmd.add_option("--seed", o.run.engineOptions.seed, "z3 engine: the solver's random seed (results do not depend on it)")
      ->capture_default_str();
  cmd.add_flag("--races", o.run.engineOptions.races, "also report every pair of racing instructions");
  cmd.add_flag("--explain", o.run.explain,
               "for the outcome the condition asks about: if the model forbids it, name the smallest sets of axioms "
               "forbidding it and show what each rejects; if it permits it, show an execution reaching it");
  cmd.add_option("--graph", o.graphDir, "write one DOT (and SVG) file per shown execution into this folder");
  static const std::map<std::string, checker::Show> kShows{
      {"witness", checker::Show::Witness}, {"all", checker::Show::All}, {"forbidden", checker::Show::Forbidden}};
  cmd.add_option_function<std::string>(
         "--show", [&o](const std::string& name) { o.show = kShows.at(name); },
         "which executions --graph draws: witness, all or forbidden")
      ->check(CLI::IsMember(kShows));
  cmd.add_option("--max-memory", o.maxMemory, kMaxMemoryHelp);
  cmd.add_option("--max-events", o.run.maxEvents, "events in the unrolled test before the verdict is UNKNOWN (0: none)");
  cmd.add_flag("--cross-check", o.run.engineOptions.crossCheck,
               "z3 engine: re-decide every solution with the explicit evaluator; a disagreement exits 4");
  cmd.add_option_function<std::string>(
         "--progress",
         [&o](const std::string& text) {
           std::string error;
           const auto m = checker::liveness::parseProgressModel(text, error);
           if (!m) throw CLI::ValidationError("--progress", error);
           o.run.progress = *m;
         },
         "progress model the hang check assumes: fair (default), hsa, obe, hsa_obe, lobe or unfair, or per level "
         "(cta=fair,gpu=obe,sys=fair); see README \"Hangs and progress models\"");
  cmd.add_flag("--no-liveness{false}", o.run.liveness, "do not check whether every execution terminates");
}

ExitCode exitFor(const checker::TestResult& r) {
  switch (r.status) {
    case checker::Status::Error: return ExitCode::UserError;
    case checker::Status::Internal: return ExitCode::InternalError;
    case checker::Status::Unknown: return ExitCode::Unknown;
    case checker::Status::Ok: break;
  }
  // A hang fails the run; a liveness verdict a bound left open is UNKNOWN.
  if (r.liveness && !r.liveness->terminates) return ExitCode::ExpectationFailed;
  if (r.liveness && !r.liveness->decided) return ExitCode::Unknown;
  return r.holds ? ExitCode::Ok : ExitCode::ExpectationFailed;
}

}  // namespace ptxmm::app
