// `ptxmm validate FILE...`: litmus tests on a GPU, compared with the model (validate/Validator.hpp), printed
// litmus7-style or as JSON, optionally gathered into one report file; also --tune (a parameter search) and
// --compare (a stored report against the current model, without a GPU). The worst exit code wins.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "app/hardware/CudaWorkbench.hpp"
#include "app/hardware/HardwareOptions.hpp"
#include "app/hardware/SiblingFiles.hpp"
#include "app/hardware/StoredReport.hpp"
#include "app/hardware/Tuner.hpp"
#include "checker/EngineRegistry.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "validate/Validator.hpp"

namespace ptxmm::app {
namespace {

using validate::TestReport;
using validate::Verdict;

std::uint64_t freshSeed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32 | rd()) % 1000000007ull;
}

ExitCode exitFor(const TestReport& r) {
  switch (r.verdict) {
    case Verdict::Consistent:
    case Verdict::CompiledOnly: return ExitCode::Ok;
    case Verdict::ForbiddenObserved: return ExitCode::ExpectationFailed;
    case Verdict::Inconclusive: return ExitCode::Unknown;
    case Verdict::Refused: return ExitCode::UserError;
    case Verdict::Error: return r.internalError ? ExitCode::InternalError : ExitCode::UserError;
  }
  return ExitCode::InternalError;
}

// The validator's options from the command's: the parameter set drawn with the seed, the sibling file read.
validate::ValidateOptions validatorOptions(const HardwareOptions& o) {
  validate::ValidateOptions v;
  v.run = o.run;
  v.budget = o.budget;
  v.seed = o.seed ? *o.seed : freshSeed();
  v.params = validate::drawParams(paramSpace(o), v.seed);
  v.paramsFile = o.paramsFile;
  v.outDir = outputFolder(o);
  v.compileOnly = o.compileOnly;
  if (!o.siblingFile.empty()) {
    validate::GivenSibling s{o.siblingFile, std::nullopt, {}};
    try {
      s.program = frontend::parseLitmusFile(o.siblingFile);
    } catch (const model::UserError& e) {
      s.problem = e.what();
    }
    v.sibling = std::move(s);
  }
  return v;
}

ExitCode validateFiles(const std::vector<std::string>& files, const HardwareOptions& o) {
  if (o.tune) return tuneFiles(files, o);
  const model::CatModel model = model::parseCatFile(o.modelFile);
  const validate::ValidateOptions options = validatorOptions(o);
  CudaWorkbench bench;
  validate::Validator validator(model, options, bench);
  SiblingFiles siblings;
  ExitCode code = ExitCode::Ok;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& f : files) {
    TestReport r;
    try {
      const frontend::Program program = frontend::parseLitmusFile(f);
      r = validator.validate(program, f, options.sibling ? std::vector<validate::GivenSibling>{} : siblings.find(f, program.name));
    } catch (const model::UserError& e) {
      r.file = f;
      r.name = std::filesystem::path(f).stem().string();
      r.verdict = Verdict::Error;
      r.internalError = false;
      r.reason = e.what();
    }
    const ExitCode rc = exitFor(r);
    if (r.verdict == Verdict::Refused || r.verdict == Verdict::Error) std::cerr << r.reason << "\n";
    if (o.json) std::cout << validate::toJson(r, static_cast<int>(rc)).dump() << std::endl;
    else if (r.verdict != Verdict::Refused && r.verdict != Verdict::Error) std::cout << validate::toText(r) << std::endl;
    all.push_back(validate::toJson(r, static_cast<int>(rc)));
    code = worst(code, rc);
  }
  if (!o.reportFile.empty())
    std::ofstream(o.reportFile) << nlohmann::json{{"tool", "ptxmm validate"}, {"seed", options.seed},
                                                  {"params", validate::paramsJson(options.params)}, {"tests", all}}
                                       .dump(1)
                                << "\n";
  return code;
}

struct ValidateCommand {
  HardwareOptions options;
  std::vector<std::string> files;
  std::string compare;
  std::uint64_t seed = 0;
  CLI::Option* seedOption = nullptr;

  ExitCode run() {
    if (*seedOption) options.seed = seed;
    if (!compare.empty()) return compareReport(compare, options);
    if (files.empty()) throw UsageError("validate needs litmus files (or --compare REPORT)");
    if (!options.siblingFile.empty() && files.size() != 1) throw UsageError("--sibling goes with exactly one test");
    return validateFiles(files, options);
  }
};

}  // namespace

Command addValidateCommand(CLI::App& app) {
  auto s = std::make_shared<ValidateCommand>();
  s->options.modelFile = defaultModelFile();
  s->options.run.engine = checker::engineNames().front();
  auto* cmd = app.add_subcommand("validate", "run litmus tests on the GPU and compare the observed outcomes with the model");
  cmd->add_option("files", s->files, "litmus files");
  cmd->add_option("--budget", s->options.budget, "seconds of GPU time per test (and per sibling)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  s->seedOption = cmd->add_option("--seed", s->seed, "seed of the parameters and layouts (default: a fresh one, printed)");
  cmd->add_option("--out", s->options.outDir, "folder for the generated programs and their SASS (default: the temp folder)");
  cmd->add_flag("--json", s->options.json, "one JSON object per test and line");
  cmd->add_flag("--compile-only", s->options.compileOnly, "generate, compile and check the SASS only (no GPU needed)");
  cmd->add_option("--params", s->options.paramsFile, "parameter space (default: validate/params/default.json)");
  cmd->add_option("--sibling", s->options.siblingFile, "the allowed sibling of a forbidden test (one test only)");
  cmd->add_flag("--tune", s->options.tune, "search the parameters for the most weak outcomes per second");
  cmd->add_option("--trials", s->options.trials, "--tune: parameter sets to try")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--compare", s->compare, "re-check a stored JSON report against the current model (no GPU)");
  cmd->add_option("--report", s->options.reportFile, "also write all tests into one JSON report");
  cmd->add_option("--model", s->options.modelFile, "cat model file")->capture_default_str();
  cmd->add_option("--unroll", s->options.run.unroll, "iterations of each loop per execution (model)")
      ->capture_default_str()->check(CLI::Range(1, 1000));
  cmd->add_option("--engine", s->options.run.engine, "decision engine of the model check")
      ->capture_default_str()->check(CLI::IsMember(checker::engineNames()));
  return {cmd, [s] { return s->run(); }};
}

}  // namespace ptxmm::app
