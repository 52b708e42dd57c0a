// Differential fuzzing and the minimiser (FuzzDiff.hpp). Minimisation works on Programs, but every candidate is
// written with writeLitmus and parsed back before it is judged, so what is kept is always a test that the
// reproducer file states exactly.
#include "app/fuzz/FuzzDiff.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "checker/EngineRegistry.hpp"
#include "checker/ResultPrinter.hpp"
#include "frontend/ConditionWalk.hpp"
#include "frontend/LitmusWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace ptxmm::app {
namespace {

using checker::EngineComparison;
using checker::RunOptions;
using checker::Status;

using frontend::CondExpr;
using frontend::CondPtr;
using frontend::CondValue;
using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using frontend::Program;
using frontend::RegInit;

// ------------------------------------------------------------------------------------------- program queries

bool isJump(const Instruction& ins) { return ins.op == Opcode::Branch || ins.op == Opcode::Goto; }

std::size_t jumpsTo(const std::vector<Instruction>& code, const std::string& label) {
  std::size_t count = 0;
  for (const Instruction& ins : code)
    if (isJump(ins) && ins.operands.back().name == label) ++count;
  return count;
}

/// Calls `visit` on every value the condition and `locations [...]` mention.
template <class Visit>
void forEachCondValue(const Program& program, Visit visit) {
  for (const CondValue& v : program.observed) visit(v);
  frontend::forEachCondValue(program.condition.expr.get(), visit);
}

bool locationUsed(const Program& program, const std::string& name) {
  for (const auto& location : program.locations)
    if (location.aliasProxy && location.aliasOf == name) return true;
  for (const auto& thread : program.threads)
    for (const Instruction& ins : thread.code)
      for (const Operand& operand : ins.operands)
        if (operand.kind == Operand::Kind::Location && operand.name == name) return true;
  bool used = false;
  forEachCondValue(program, [&](const CondValue& v) { used |= v.kind == CondValue::Kind::Location && v.name == name; });
  return used;
}

bool registerInCode(const Program& program, int thread, const std::string& reg) {
  for (const Instruction& ins : program.threads.at(static_cast<std::size_t>(thread)).code)
    for (const Operand& operand : ins.operands)
      if (operand.kind == Operand::Kind::Register && operand.name == reg) return true;
  return false;
}

bool registerUsed(const Program& program, int thread, const std::string& reg) {
  if (registerInCode(program, thread, reg)) return true;
  bool used = false;
  forEachCondValue(program, [&](const CondValue& v) {
    used |= v.kind == CondValue::Kind::Register && v.thread == thread && v.name == reg;
  });
  return used;
}

bool threadMentioned(const Program& program, int thread) {
  bool mentioned = false;
  for (const auto& init : program.regInits) mentioned |= init.thread == thread;
  forEachCondValue(program, [&](const CondValue& v) { mentioned |= v.kind == CondValue::Kind::Register && v.thread == thread; });
  return mentioned;
}

// ----------------------------------------------------------------------------------------------- reductions

/// `program` without instruction `index` of `thread`; a jump takes its label along once nothing else targets
/// it, and a label that is still targeted stays (nullopt).
std::optional<Program> withoutInstruction(const Program& program, std::size_t thread, std::size_t index) {
  Program out = program;
  auto& code = out.threads[thread].code;
  const Instruction removed = code[index];
  if (removed.op == Opcode::Label && jumpsTo(code, removed.operands.at(0).name) > 0) return std::nullopt;
  code.erase(code.begin() + static_cast<std::ptrdiff_t>(index));
  if (isJump(removed) && jumpsTo(code, removed.operands.back().name) == 0)
    std::erase_if(code, [&](const Instruction& ins) {
      return ins.op == Opcode::Label && ins.operands.at(0).name == removed.operands.back().name;
    });
  // A register the condition reads and no instruction names any more keeps the value it read, 0, stated as an
  // initial value: the reader rejects a condition register its thread does not name (a typo otherwise).
  const int t = static_cast<int>(thread);
  for (const Operand& operand : removed.operands) {
    if (operand.kind != Operand::Kind::Register || registerInCode(out, t, operand.name)) continue;
    const bool initialised = std::any_of(out.regInits.begin(), out.regInits.end(),
                                         [&](const RegInit& r) { return r.thread == t && r.reg == operand.name; });
    if (!initialised && registerUsed(out, t, operand.name)) out.regInits.push_back({t, operand.name, 0, {}, {}});
  }
  return out;
}

std::optional<Program> withoutLocation(const Program& program, std::size_t index) {
  if (locationUsed(program, program.locations[index].name)) return std::nullopt;
  Program out = program;
  out.locations.erase(out.locations.begin() + static_cast<std::ptrdiff_t>(index));
  return out;
}

std::optional<Program> withoutRegInit(const Program& program, std::size_t index) {
  const auto& init = program.regInits[index];
  if (registerUsed(program, init.thread, init.reg)) return std::nullopt;
  Program out = program;
  out.regInits.erase(out.regInits.begin() + static_cast<std::ptrdiff_t>(index));
  return out;
}

/// `program` whose condition keeps only one side (`left` or not) of its top-level /\ or \/.
std::optional<Program> withConditionSide(const Program& program, bool left) {
  const CondExpr& e = *program.condition.expr;
  if (e.kind != CondExpr::Kind::And && e.kind != CondExpr::Kind::Or) return std::nullopt;
  Program out = program;
  out.condition.expr = left ? e.a : e.b;
  return out;
}

/// `program` without an empty thread that nothing mentions; later threads move up one column.
std::optional<Program> withoutThread(const Program& program, std::size_t index) {
  const int removed = static_cast<int>(index);
  if (program.threads.size() < 2 || !program.threads[index].code.empty() || threadMentioned(program, removed))
    return std::nullopt;
  Program out = program;
  out.threads.erase(out.threads.begin() + removed);
  for (std::size_t t = index; t < out.threads.size(); ++t) {
    out.threads[t].index = static_cast<int>(t);
    out.threads[t].name = "P" + std::to_string(t);
  }
  checker::renumberThreads(out, [removed](int t) { return t > removed ? t - 1 : t; });
  return out;
}

/// The candidate as its reproducer file would state it, when that file parses and still keeps the property.
std::optional<Program> accepted(const std::optional<Program>& candidate, const ProgramPredicate& keeps) {
  if (!candidate) return std::nullopt;
  try {
    Program reparsed = frontend::parseLitmus(frontend::writeLitmus(*candidate), candidate->file);
    if (keeps(reparsed)) return reparsed;
  } catch (const model::UserError&) {
  }
  return std::nullopt;
}

/// One sweep of every single-step reduction, last positions first (so indices stay valid after a removal).
bool reduceOnce(Program& program, const ProgramPredicate& keeps) {
  bool changed = false;
  auto attempt = [&](const std::optional<Program>& candidate) {
    if (auto kept = accepted(candidate, keeps)) {
      program = std::move(*kept);
      changed = true;
    }
  };
  for (std::size_t t = program.threads.size(); t-- > 0;)
    for (std::size_t i = program.threads[t].code.size(); i-- > 0;)
      if (i < program.threads[t].code.size()) attempt(withoutInstruction(program, t, i));
  for (std::size_t l = program.locations.size(); l-- > 0;) attempt(withoutLocation(program, l));
  for (std::size_t r = program.regInits.size(); r-- > 0;) attempt(withoutRegInit(program, r));
  for (bool left : {false, true}) attempt(withConditionSide(program, left));
  for (std::size_t t = program.threads.size(); t-- > 0;) attempt(withoutThread(program, t));
  return changed;
}

// ----------------------------------------------------------------------------------------------- fuzzing

/// The comparison's difference kind; a test the unroller rejects and a crash of either engine are kinds of
/// their own, so that minimisation keeps them apart.
std::pair<std::string, EngineComparison> judge(const model::CatModel& model, const Program& program,
                                               const RunOptions& run) {
  try {
    EngineComparison c = checker::compareEngines(model, program, run);
    return {differenceKind(c), std::move(c)};
  } catch (const model::UserError& e) {
    EngineComparison c;
    c.difference = std::string("rejected: ") + e.what();
    return {"rejected", std::move(c)};
  } catch (const std::exception& e) {
    EngineComparison c;
    c.difference = std::string("exception: ") + e.what();
    return {"exception", std::move(c)};
  }
}

std::string oneLine(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

void writeReproducer(FuzzFinding& finding, const std::string& outDir, const std::string& difference) {
  if (outDir.empty()) return;
  std::filesystem::create_directories(outDir);
  finding.reproducer = (std::filesystem::path(outDir) / ("fuzz-diff-" + std::to_string(finding.seed) + ".litmus")).string();
  std::ofstream out(finding.reproducer);
  out << "// fuzz-diff seed " << finding.seed << ": " << oneLine(difference) << "\n" << finding.minimal;
  if (!out) throw std::runtime_error("cannot write " + finding.reproducer);
}

FuzzFinding investigate(const model::CatModel& model, const FuzzOptions& options, std::uint64_t seed,
                        const Program& program, const std::string& kind, const std::string& difference) {
  FuzzFinding finding{seed, difference, kind, {}, {}};
  const Program minimal = minimizeProgram(
      program, [&](const Program& p) { return judge(model, p, options.run).first == kind; });
  finding.minimal = frontend::writeLitmus(minimal);
  writeReproducer(finding, options.outDir, judge(model, minimal, options.run).second.difference);
  return finding;
}

/// The generator promises valid tests: a generated test that does not parse is a bug in ptxmm, not the user's.
Program parseGenerated(const std::string& text, std::uint64_t seed) {
  try {
    return frontend::parseLitmus(text, "fuzz-" + std::to_string(seed) + ".litmus");
  } catch (const model::UserError& e) {
    throw std::logic_error("the generated test of seed " + std::to_string(seed) + " does not parse: " + e.what());
  }
}

}  // namespace

std::string differenceKind(const EngineComparison& c) {
  if (c.difference.empty()) return {};
  if (c.solver.status == Status::Internal) return checker::solverEngine().name + " internal error";
  if (c.reference.status != c.solver.status)
    return "status " + checker::statusName(c.reference.status) + " vs " + checker::statusName(c.solver.status);
  // "states differ: explicit ...", "the condition's claim differs", "raised flags differ"
  return c.difference.substr(0, c.difference.find(':'));
}

Program minimizeProgram(const Program& program, const ProgramPredicate& keeps) {
  Program current = program;
  while (reduceOnce(current, keeps)) {
  }
  return current;
}

FuzzReport fuzzDiff(const model::CatModel& model, const FuzzOptions& options, const FuzzProgress& progress) {
  FuzzReport report;
  for (std::uint64_t i = 0; i < options.count; ++i) {
    const std::uint64_t seed = options.seed + i;
    const std::string text = generateLitmus(seed, options.generator);
    const Program program = parseGenerated(text, seed);
    const auto [kind, comparison] = judge(model, program, options.run);
    const FuzzFinding* finding = nullptr;
    if (comparison.inconclusive) {
      ++report.inconclusive;
      report.inconclusiveTests.emplace_back(seed, comparison.limit);
    } else if (kind.empty()) {
      ++report.agree;
    } else {
      ++report.differ;
      report.findings.push_back(investigate(model, options, seed, program, kind, comparison.difference));
      finding = &report.findings.back();
    }
    if (progress) progress(seed, finding, report);
  }
  return report;
}

}  // namespace ptxmm::app
