// One test from Program to verdict (Validator.hpp).
#include "validate/Validator.hpp"

#include "validate/Sibling.hpp"

namespace ptxmm::validate {

Validator::Validator(const model::CatModel& model, ValidateOptions options, Workbench& bench)
    : model_(model), o_(std::move(options)), bench_(bench) {}

TestReport& Validator::fail(TestReport& r, Verdict v, bool internal, const std::string& why) const {
  r.verdict = v;
  r.internalError = internal;
  r.reason = why;
  return r;
}

std::string Validator::replay(const std::string& file) const {
  std::string s = "ptxmm validate " + file + " --seed " + std::to_string(o_.seed) + " --budget " + std::to_string(o_.budget);
  if (!o_.paramsFile.empty()) s += " --params " + o_.paramsFile;
  return s;
}

// Everything up to a checked binary; on failure `r` holds the verdict.
std::optional<std::pair<HardwareTest, Build>> Validator::prepare(const ModelCheck& m, TestReport& r) {
  HardwareTest hw;
  try {
    hw = analyze(m.program, m.view.keys);
  } catch (const Unsupported& e) {
    fail(r, Verdict::Refused, false, e.what());
    return std::nullopt;
  }
  if (const auto problem = bench_.unavailable()) {
    fail(r, Verdict::Error, false, "ptxmm validate: " + *problem);
    return std::nullopt;
  }
  r.nvccVersion = bench_.compilerVersion();
  r.workDir = o_.outDir + "/" + safeName(m.program.name);
  try {
    Build b = buildHarness(hw, m.view, bench_, r.workDir);
    r.sassHash = b.sassHash;
    r.sassAnchors = b.anchors;
    r.sassNotes = b.notes;
    return std::pair{std::move(hw), std::move(b)};
  } catch (const SassRefusal& e) {
    fail(r, Verdict::Refused, false, m.program.file + ": refused: " + e.what());
  } catch (const ToolFailure& e) {
    fail(r, Verdict::Error, true, e.what());
  }
  return std::nullopt;
}

std::optional<ModelCheck> Validator::check(const frontend::Program& program, TestReport& r) {
  try {
    ModelCheck m = checkModel(model_, program, o_.run);
    if (m.result.status == checker::Status::Error) {
      fail(r, Verdict::Error, false, m.result.reason);
      return std::nullopt;
    }
    if (m.result.status == checker::Status::Internal) {
      fail(r, Verdict::Error, true, "the model check failed: " + m.result.reason);
      return std::nullopt;
    }
    return m;
  } catch (const model::UserError& e) {
    fail(r, Verdict::Error, false, e.what());
  }
  return std::nullopt;
}

namespace {

// A failed run: a missing or wrong GPU is the user's environment, anything else a failure of the harness.
bool harnessFailure(const HardwareRun& run) {
  for (const char* user : {"no CUDA-capable device", "built for sm_90", "CUDA driver version is insufficient"})
    if (run.error.find(user) != std::string::npos) return false;
  return true;
}

}  // namespace

TestReport Validator::validate(const frontend::Program& program, const std::string& file, const std::vector<GivenSibling>& described) {
  TestReport r;
  r.file = file;
  r.name = program.name;
  r.replay = replay(file);
  const auto m = check(program, r);
  if (!m) return r;
  r.model = m->view;
  const auto built = prepare(*m, r);
  if (!built) return r;
  r.siblingRequired = m->forbidsTarget();
  if (o_.compileOnly) {
    // The allowed sibling of a forbidden test is built and checked too, so that a compile-only pass leaves
    // every binary a later run needs.
    if (r.siblingRequired) r.sibling = runSibling(*m, false, described);
    r.verdict = Verdict::CompiledOnly;
    r.internalError = false;
    return r;
  }
  HardwareRun run = runProgram(bench_, built->second.binary, o_.budget, o_.seed, o_.params);
  if (!run.ok) return fail(r, Verdict::Error, harnessFailure(run), "the hardware run failed: " + run.error);
  bench_.keep(r.workDir, "result.json",
              nlohmann::json{{"seed", run.seed}, {"instances", run.instances}}.dump() + "\n");
  r.comparison = compare(m->view, run.histogram, run.seconds, [&](const Values& v) { return m->satisfies(v); });
  r.run = std::move(run);
  if (r.siblingRequired) r.sibling = runSibling(*m, true, described);
  decide(r);
  return r;
}

void Validator::decide(TestReport& r) const {
  const auto& c = *r.comparison;
  const auto& run = *r.run;
  if (run.missing) {
    fail(r, Verdict::Error, true,
         std::to_string(run.missing) + " instances were not played by every role: a harness bug; no result is reported");
    r.comparison.reset();
    return;
  }
  if (c.forbiddenStates) {
    fail(r, Verdict::ForbiddenObserved, false,
         std::to_string(c.forbiddenStates) + " state(s) the model forbids were observed in " + std::to_string(c.forbiddenInstances) +
             " instances; replay with: " + r.replay);
    return;
  }
  if (!r.model.complete)
    return void(fail(r, Verdict::Inconclusive, false, "the model's state list is incomplete: " + r.model.status));
  if (run.lost)
    return void(fail(r, Verdict::Inconclusive, false, std::to_string(run.lost) + " outcomes could not be recorded"));
  if (r.siblingRequired && !(r.sibling && r.sibling->seen))
    return void(fail(r, Verdict::Inconclusive, false,
                     "the forbidden outcome was not seen, but neither was the allowed sibling's weak outcome, so the run shows "
                     "nothing about the harness's power" + (r.sibling && !r.sibling->problem.empty() ? " (" + r.sibling->problem + ")" : "")));
  r.verdict = Verdict::Consistent;
  r.internalError = false;
}

// The allowed sibling of a forbidden test: --sibling FILE, else the first of the case's described broken
// siblings (the hand-written weakening is the interesting one) the model allows and the harness runs, else the
// first weakened candidate the model allows; built and SASS-checked, and run when `run` is set.
SiblingReport Validator::runSibling(const ModelCheck& original, bool run, const std::vector<GivenSibling>& described) {
  SiblingReport s;
  std::optional<ModelCheck> chosen;
  if (o_.sibling) {
    s.origin = "--sibling " + o_.sibling->file;
    if (!o_.sibling->program) {
      s.problem = o_.sibling->problem;
      return s;
    }
    try {
      chosen = checkModel(model_, *o_.sibling->program, o_.run);
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
    for (const auto& d : described) {
      if (!d.program) continue;
      try {
        ModelCheck m = checkModel(model_, *d.program, o_.run);
        if (!m.allowsTarget()) continue;
        analyze(m.program, m.view.keys);
        s.origin = "described: " + d.file;
        chosen = std::move(m);
        break;
      } catch (const model::UserError&) {
        continue;  // a sibling the unroller or the harness cannot take
      }
    }
    for (const auto& c : chosen ? std::vector<SiblingCandidate>{} : siblingCandidates(original.program)) {
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
  const HardwareRun hw = runProgram(bench_, built->second.binary, o_.budget, o_.seed, o_.params);
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

}  // namespace ptxmm::validate
