// Model check and harness build (Pipeline.hpp).
#include "validate/Pipeline.hpp"

#include <algorithm>

#include "checker/ResultPrinter.hpp"
#include "frontend/lower/Unroller.hpp"
#include "validate/CudaGenerator.hpp"
#include "validate/PtxForm.hpp"
#include "validate/SassChecker.hpp"

namespace ptxmm::validate {

bool ModelCheck::satisfies(const Values& values) const {
  return !program.condition.expr || checker::satisfies(*program.condition.expr, observed, values);
}

bool ModelCheck::target(const Values& values) const {
  return view.quantifier == frontend::Condition::Quantifier::Forall ? !satisfies(values) : satisfies(values);
}

bool ModelCheck::allowsTarget() const {
  return std::any_of(view.allowed.begin(), view.allowed.end(), [&](const Values& v) { return target(v); });
}

bool ModelCheck::forbidsTarget() const { return view.complete && !allowsTarget(); }

ModelCheck checkModel(const model::CatModel& model, const frontend::Program& program, const checker::RunOptions& options) {
  ModelCheck m;
  m.program = program;
  const model::EventGraph graph = frontend::unroll(program, {options.unroll});
  m.result = checker::makeEngine(model, options)->run(program, graph);
  m.observed = checker::observedKeys(program, graph);
  m.view.keys = m.result.keys;
  for (const auto& s : m.result.states) m.view.allowed.push_back(s.values);
  m.view.complete = m.result.status == checker::Status::Ok;
  m.view.status = m.view.complete ? "ok" : m.result.reason;
  m.view.quantifier = program.condition.quantifier;
  m.view.conditionText = program.condition.text;
  // The predicate reads values by key position; both lists come from observedKeys, so they must agree.
  for (std::size_t k = 0; k < m.observed.size() && k < m.view.keys.size(); ++k)
    if (m.observed[k].display != m.view.keys[k])
      throw std::logic_error("the engine's keys and observedKeys disagree at " + m.view.keys[k]);
  return m;
}

std::string safeName(const std::string& name) {
  const std::string out = checker::fileStem(name);
  return out.empty() ? "test" : out;
}

std::vector<ExpectedInstruction> expectedInstructions(const HardwareTest& hw, int r) {
  const HwRole& role = hw.roles[static_cast<std::size_t>(r)];
  const auto& code = hw.program.threads[static_cast<std::size_t>(role.thread)].code;
  std::vector<ExpectedInstruction> out;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const PtxForm form = roleForm(hw, role, static_cast<int>(i));
    const auto sass = expectedSass(form);
    if (!sass) continue;
    ExpectedInstruction x{code[i].text, code[i].pos, *sass, role.inLoop[i]};
    const bool single = sass->anchors.size() == 1 && !sass->membarBefore && !sass->invalidateAfter;
    if (single && (form.kind == FormKind::Load || form.kind == FormKind::Store) && form.sem == frontend::Sem::Weak) {
      x.swap = ExpectedInstruction::Swap::WeakAccess;
      for (const auto& a : role.accesses)
        if (a.instr == static_cast<int>(i)) x.location = a.location, x.shared = a.kind != AddrKind::Global;
    } else if (single && form.kind == FormKind::FenceProxy && code[i].space == frontend::StateSpace::Global) {
      x.swap = ExpectedInstruction::Swap::SpaceFence;
    } else if (single && form.kind == FormKind::CpAsyncCommit) {
      x.swap = ExpectedInstruction::Swap::Commit;
    }
    out.push_back(std::move(x));
  }
  return out;
}

Build buildHarness(const HardwareTest& hw, const ModelView& model, Workbench& bench, const std::string& dir) {
  Build b;
  b.dir = dir;
  GeneratorInput input;
  input.test = &hw;
  input.allowed = model.allowed;
  input.modelKnown = model.complete;
  const BuiltProgram built = bench.build(dir, generateCuda(input));
  b.binary = built.binary;
  b.sassHash = fnv1a(built.listing);
  const auto functions = parseSass(built.listing);
  std::vector<std::string> problems;
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    const std::string who = hw.program.threads[static_cast<std::size_t>(hw.roles[r].thread)].name;
    const SassFunction* f = findFunction(functions, roleFunctionName(static_cast<int>(r)));
    if (!f) {
      problems.push_back(who + ": its function " + roleFunctionName(static_cast<int>(r)) + " is not in the SASS (inlined or removed)");
      continue;
    }
    const SassVerdict v = checkRole(*f, expectedInstructions(hw, static_cast<int>(r)), who);
    problems.insert(problems.end(), v.problems.begin(), v.problems.end());
    b.notes.insert(b.notes.end(), v.notes.begin(), v.notes.end());
    b.anchors += v.anchors;
  }
  if (!problems.empty()) {
    std::string text = "the SASS of the compiled test does not execute the litmus code (" + built.listingFile + "):";
    for (const auto& p : problems) text += "\n  " + p;
    throw SassRefusal(text);
  }
  return b;
}

}  // namespace ptxmm::validate
