// One test from file to verdict, and the `validate` command over many files (Validator.hpp).
#include "validate/Validator.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "validate/Pipeline.hpp"
#include "validate/Sibling.hpp"
#include "validate/Tuner.hpp"

namespace fs = std::filesystem;

namespace ptxmm::validate {

namespace {

std::uint64_t freshSeed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32 | rd()) % 1000000007ull;
}

class Validator {
 public:
  explicit Validator(const ValidateOptions& o) : o_(o), model_(model::parseCatFile(o.modelFile)) {
    space_ = o.paramsFile.empty() ? defaultParamSpace() : readParamSpace(o.paramsFile);
    seed_ = o.seed ? *o.seed : freshSeed();
    params_ = drawParams(space_, seed_);
    outDir_ = o.outDir.empty() ? (fs::temp_directory_path() / "ptxmm-validate").string() : o.outDir;
    tc_ = findToolchain(toolProblem_);
  }

  std::uint64_t seed() const { return seed_; }
  const ParamSet& params() const { return params_; }

  TestReport validateFile(const std::string& path) {
    TestReport r;
    r.file = path;
    r.name = fs::path(path).stem().string();
    frontend::Program program;
    try {
      program = frontend::parseLitmusFile(path);
    } catch (const model::UserError& e) {
      return fail(r, Verdict::Error, ExitCode::UserError, e.what());
    }
    return validateProgram(program, path);
  }

 private:
  TestReport fail(TestReport& r, Verdict v, ExitCode code, const std::string& why) const {
    r.verdict = v;
    r.code = code;
    r.reason = why;
    return r;
  }

  std::string replay(const std::string& file) const {
    std::string s = "ptxmm validate " + file + " --seed " + std::to_string(seed_) + " --budget " + std::to_string(o_.budget);
    if (!o_.paramsFile.empty()) s += " --params " + o_.paramsFile;
    return s;
  }

  // Everything up to a checked binary; on failure `r` holds the verdict.
  std::optional<std::pair<HardwareTest, Build>> prepare(const ModelCheck& m, TestReport& r) {
    HardwareTest hw;
    try {
      hw = analyze(m.program, m.view.keys);
    } catch (const Unsupported& e) {
      fail(r, Verdict::Refused, ExitCode::UserError, e.what());
      return std::nullopt;
    }
    if (!tc_) {
      fail(r, Verdict::Error, ExitCode::UserError, "ptxmm validate: " + toolProblem_);
      return std::nullopt;
    }
    r.nvccVersion = tc_->nvccVersion;
    r.workDir = outDir_ + "/" + safeName(m.program.name);
    try {
      Build b = buildHarness(hw, m.view, *tc_, r.workDir);
      r.sassHash = b.sassHash;
      r.sassAnchors = b.anchors;
      r.sassNotes = b.notes;
      return std::pair{std::move(hw), std::move(b)};
    } catch (const SassRefusal& e) {
      fail(r, Verdict::Refused, ExitCode::UserError, m.program.file + ": refused: " + e.what());
    } catch (const ToolFailure& e) {
      fail(r, Verdict::Error, ExitCode::InternalError, e.what());
    }
    return std::nullopt;
  }

  std::optional<ModelCheck> model(const frontend::Program& program, TestReport& r) {
    try {
      ModelCheck m = checkModel(model_, program, o_.run);
      if (m.result.status == checker::Status::Error) {
        fail(r, Verdict::Error, ExitCode::UserError, m.result.reason);
        return std::nullopt;
      }
      if (m.result.status == checker::Status::Internal) {
        fail(r, Verdict::Error, ExitCode::InternalError, "the model check failed: " + m.result.reason);
        return std::nullopt;
      }
      return m;
    } catch (const model::UserError& e) {
      fail(r, Verdict::Error, ExitCode::UserError, e.what());
    }
    return std::nullopt;
  }

  // A failed run: a missing or wrong GPU is the user's environment, anything else a failure of the harness.
  static ExitCode runFailureCode(const HardwareRun& run) {
    for (const char* user : {"no CUDA-capable device", "built for sm_90", "CUDA driver version is insufficient"})
      if (run.error.find(user) != std::string::npos) return ExitCode::UserError;
    return ExitCode::InternalError;
  }

  TestReport validateProgram(const frontend::Program& program, const std::string& path) {
    TestReport r;
    r.file = path;
    r.name = program.name;
    r.replay = replay(path);
    const auto m = model(program, r);
    if (!m) return r;
    r.model = m->view;
    const auto built = prepare(*m, r);
    if (!built) return r;
    r.siblingRequired = m->forbidsTarget();
    if (o_.compileOnly) {
      // The allowed sibling of a forbidden test is built and checked too, so that a compile-only pass leaves
      // every binary a later run needs.
      if (r.siblingRequired) r.sibling = runSibling(*m, false);
      r.verdict = Verdict::CompiledOnly;
      r.code = ExitCode::Ok;
      return r;
    }
    HardwareRun run = runProgram(built->second.binary, o_.budget, seed_, params_);
    if (!run.ok) return fail(r, Verdict::Error, runFailureCode(run), "the hardware run failed: " + run.error);
    std::ofstream(r.workDir + "/result.json") << nlohmann::json{{"seed", run.seed}, {"instances", run.instances}}.dump() << "\n";
    r.comparison = compare(m->view, run.histogram, run.seconds, [&](const Values& v) { return m->satisfies(v); });
    r.run = std::move(run);
    if (r.siblingRequired) r.sibling = runSibling(*m, true);
    decide(r);
    return r;
  }

  void decide(TestReport& r) const {
    const auto& c = *r.comparison;
    const auto& run = *r.run;
    if (run.missing) {
      fail(r, Verdict::Error, ExitCode::InternalError,
           std::to_string(run.missing) + " instances were not played by every role: a harness bug; no result is reported");
      r.comparison.reset();
      return;
    }
    if (c.forbiddenStates) {
      fail(r, Verdict::ForbiddenObserved, ExitCode::ExpectationFailed,
           std::to_string(c.forbiddenStates) + " state(s) the model forbids were observed in " + std::to_string(c.forbiddenInstances) +
               " instances; replay with: " + r.replay);
      return;
    }
    if (!r.model.complete)
      return void(fail(r, Verdict::Inconclusive, ExitCode::Unknown, "the model's state list is incomplete: " + r.model.status));
    if (run.lost)
      return void(fail(r, Verdict::Inconclusive, ExitCode::Unknown, std::to_string(run.lost) + " outcomes could not be recorded"));
    if (r.siblingRequired && !(r.sibling && r.sibling->seen))
      return void(fail(r, Verdict::Inconclusive, ExitCode::Unknown,
                       "the forbidden outcome was not seen, but neither was the allowed sibling's weak outcome, so the run shows "
                       "nothing about the harness's power" + (r.sibling && !r.sibling->problem.empty() ? " (" + r.sibling->problem + ")" : "")));
    r.verdict = Verdict::Consistent;
    r.code = ExitCode::Ok;
  }

  // The allowed sibling of a forbidden test: --sibling FILE, or the first weakened candidate the model allows;
  // built and SASS-checked, and run when `run` is set.
  SiblingReport runSibling(const ModelCheck& original, bool run) {
    SiblingReport s;
    std::optional<ModelCheck> chosen;
    if (!o_.siblingFile.empty()) {
      s.origin = "--sibling " + o_.siblingFile;
      try {
        chosen = checkModel(model_, frontend::parseLitmusFile(o_.siblingFile), o_.run);
      } catch (const model::UserError& e) {
        s.problem = e.what();
        return s;
      }
      if (!chosen->allowsTarget()) {
        s.name = chosen->program.name;
        s.problem = "the model does not allow the sibling's own target outcome";
        return s;
      }
    } else {
      for (const auto& c : siblingCandidates(original.program)) {
        try {
          ModelCheck m = checkModel(model_, c.program, o_.run);
          if (!m.allowsTarget()) continue;
          analyze(m.program, m.view.keys);
          s.origin = "weakened: " + c.change;
          chosen = std::move(m);
          break;
        } catch (const model::UserError&) {
          continue;  // a candidate the unroller or the harness cannot take
        }
      }
      if (!chosen) {
        s.name = original.program.name + "~sibling";
        s.problem = "no weakening of its synchronisation makes the outcome allowed; give one with --sibling FILE";
        return s;
      }
    }
    s.name = chosen->program.name;
    TestReport r;
    const auto built = prepare(*chosen, r);
    if (!built) {
      s.problem = r.reason;
      return s;
    }
    if (!run) return s;
    const HardwareRun hw = runProgram(built->second.binary, o_.budget, seed_, params_);
    if (!hw.ok) {
      s.problem = "its run failed: " + hw.error;
      return s;
    }
    for (const auto& [values, count] : hw.histogram)
      if (chosen->target(values)) s.targetCount += count;
    s.seen = s.targetCount > 0;
    s.instances = hw.instances;
    s.seconds = hw.seconds;
    return s;
  }

  ValidateOptions o_;
  model::CatModel model_;
  ParamSpace space_;
  std::uint64_t seed_ = 0;
  ParamSet params_;
  std::string outDir_;
  std::optional<Toolchain> tc_;
  std::string toolProblem_;
};

}  // namespace

ExitCode validateFiles(const std::vector<std::string>& files, const ValidateOptions& options) {
  if (options.tune) return tuneFiles(files, options);
  Validator v(options);
  ExitCode code = ExitCode::Ok;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& f : files) {
    const TestReport r = v.validateFile(f);
    if (r.verdict == Verdict::Refused || r.verdict == Verdict::Error) std::cerr << r.reason << "\n";
    if (options.json) std::cout << toJson(r).dump() << std::endl;
    else if (r.verdict != Verdict::Refused && r.verdict != Verdict::Error) std::cout << toText(r) << std::endl;
    all.push_back(toJson(r));
    code = worst(code, r.code);
  }
  if (!options.reportFile.empty())
    std::ofstream(options.reportFile) << nlohmann::json{{"tool", "ptxmm validate"}, {"seed", v.seed()}, {"params", paramsJson(v.params())},
                                                        {"tests", all}}
                                             .dump(1)
                                      << "\n";
  return code;
}

}  // namespace ptxmm::validate
