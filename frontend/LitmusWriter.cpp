// The litmus writer (LitmusWriter.hpp). Every spelling comes from InstructionTable's rows or model's
// vocabulary, looked up by the field it stands for, so the writer cannot drift from what the parser accepts.
#include "frontend/LitmusWriter.hpp"

#include "frontend/ConditionWalk.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "frontend/InstructionTable.hpp"

namespace ptxmm::frontend {
namespace {

// fence.proxy's one target that is not a proxy name (InstructionTable's kAliasFenceTarget).
constexpr std::string_view kAliasFenceTarget = "alias";

bool isMemoryForm(InstrForm form) {
  return form == InstrForm::Load || form == InstrForm::Store || form == InstrForm::Atom || form == InstrForm::Red;
}

/// The first mnemonic row satisfying `match`; a Program the parser could not have produced is a bug.
template <class Match>
std::string_view mnemonic(Match match, std::string_view what) {
  for (const auto& row : mnemonicTable())
    if (match(row)) return row.name;
  throw std::logic_error("LitmusWriter: no mnemonic for " + std::string(what));
}

/// The spelling of the first qualifier of `kind` satisfying `match`.
template <class Match>
std::string_view qualifier(QualKind kind, Match match, std::string_view what) {
  for (const auto& row : qualifierTable())
    if (row.kind == kind && match(row)) return row.name;
  throw std::logic_error("LitmusWriter: no qualifier for " + std::string(what));
}

std::string dotted(const std::vector<std::string_view>& parts) {
  std::string out;
  for (auto part : parts) {
    if (part.empty()) continue;
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

std::string operandText(const Operand& operand) {
  return operand.kind == Operand::Kind::Immediate ? std::to_string(operand.value) : operand.name;
}

std::string withOperands(const std::string& head, const std::vector<Operand>& operands) {
  std::string out = head;
  for (std::size_t i = 0; i < operands.size(); ++i) out += (i == 0 ? " " : ", ") + operandText(operands[i]);
  return out;
}

std::string_view scopeText(const Instruction& ins) { return ins.scope ? model::scopeName(*ins.scope) : ""; }

std::vector<std::string_view> semParts(Sem sem) {
  // .mmio is only ever written together with .relaxed (the parser checks .sys through the scope).
  if (sem == Sem::Mmio) return {semName(Sem::Mmio), semName(Sem::Relaxed)};
  return {semName(sem)};
}

std::string memoryText(const Instruction& ins) {
  std::vector<std::string_view> parts = {mnemonic(
      [&](const MnemonicInfo& row) { return isMemoryForm(row.form) && row.op == ins.op && row.proxy == ins.proxy; },
      "a memory access")};
  for (auto part : semParts(ins.sem)) parts.push_back(part);
  parts.push_back(scopeText(ins));
  if (ins.space != StateSpace::Unspecified)
    parts.push_back(qualifier(QualKind::Space, [&](const QualifierInfo& q) { return q.space == ins.space; }, "a space"));
  if (ins.op == Opcode::Atom || ins.op == Opcode::Red)
    parts.push_back(
        qualifier(QualKind::AtomOp, [&](const QualifierInfo& q) { return q.atomOp == ins.atomOp; }, "an atomic op"));
  return withOperands(dotted(parts), ins.operands);
}

std::string fenceText(const Instruction& ins) {
  // The restricted and mbarrier-init fences keep their spelling, like the other Hopper-era instructions.
  if (ins.fenceKind != FenceKind::Plain) return ins.text;
  auto fence = mnemonic([](const MnemonicInfo& row) { return row.form == InstrForm::Fence; }, "fence");
  return dotted({fence, semName(ins.sem), scopeText(ins)});
}

std::string proxyFenceText(const Instruction& ins) {
  // Hopper forms (tensormap fences, ranged or state-space-limited fences) are kept verbatim.
  if (ins.fenceKind != FenceKind::Plain || ins.uniDirectional || !ins.operands.empty() || ins.space != StateSpace::Unspecified)
    return ins.text;
  auto fence = mnemonic([](const MnemonicInfo& row) { return row.form == InstrForm::Fence; }, "fence");
  auto proxy = qualifier(QualKind::ProxyFence, [](const QualifierInfo&) { return true; }, "fence.proxy");
  return dotted({fence, proxy, ins.aliasFence ? kAliasFenceTarget : model::proxyName(ins.proxy)});
}

// Dat3M's form is bar.cta.sync|arrive exactly. PTX's aligned form is bar.sync|arrive, or barrier.cta.sync.aligned
// when .cta is written (bar.cta.sync would read as Dat3M's form); the non-aligned one is barrier{.cta}.
std::string barrierText(const Instruction& ins) {
  const bool bar = ins.dat3mBarrier || (ins.aligned && !ins.scope);
  bool first = true;  // the table lists bar, then barrier
  auto name = mnemonic([&](const MnemonicInfo& row) { return row.form == InstrForm::Barrier && std::exchange(first, false) == bar; },
                       "a barrier");
  auto action = qualifier(QualKind::BarrierAction, [&](const QualifierInfo& q) { return q.barrierOp == ins.op; },
                          "a barrier action");
  auto aligned = !bar && ins.aligned ? qualifier(QualKind::Aligned, [](const QualifierInfo&) { return true; }, ".aligned")
                                     : std::string_view();
  return withOperands(dotted({name, scopeText(ins), action, aligned}), ins.operands);
}

std::string localText(const Instruction& ins) {
  return withOperands(std::string(mnemonic(
                          [&](const MnemonicInfo& row) {
                            return row.form == InstrForm::Local && row.localOp == ins.localOp;
                          },
                          "register arithmetic")),
                      ins.operands);
}

std::string setpText(const Instruction& ins) {
  auto setp = mnemonic([](const MnemonicInfo& row) { return row.form == InstrForm::Setp; }, "setp");
  auto cmp = qualifier(QualKind::Cmp, [&](const QualifierInfo& q) { return q.cmp == ins.cmp; }, "a comparison");
  return withOperands(dotted({setp, cmp}), ins.operands);
}

std::string branchText(const Instruction& ins) {
  if (!ins.predicated)
    return withOperands(std::string(mnemonic(
                            [&](const MnemonicInfo& row) {
                              return row.form == InstrForm::CompareBranch && row.cmp == ins.cmp;
                            },
                            "a compare-and-branch")),
                        ins.operands);
  auto bra = mnemonic([](const MnemonicInfo& row) { return row.form == InstrForm::Bra; }, "bra");
  return "@" + std::string(ins.negatePredicate ? "!" : "") + ins.operands.at(0).name + " " + std::string(bra) + " " +
         ins.operands.at(1).name;
}

std::string gotoText(const Instruction& ins) {
  auto go = mnemonic([](const MnemonicInfo& row) { return row.form == InstrForm::Goto; }, "goto");
  return withOperands(std::string(go), ins.operands);
}

std::vector<std::string> threadCells(const Thread& thread) {
  // A cell holds any labels and then at most one instruction.
  std::vector<std::string> cells;
  std::string pending;
  for (const Instruction& ins : thread.code) {
    pending += (pending.empty() ? "" : " ") + instructionText(ins);
    if (ins.op == Opcode::Label) continue;
    cells.push_back(std::move(pending));
    pending.clear();
  }
  if (!pending.empty()) cells.push_back(std::move(pending));
  return cells;
}

std::string threadHeader(const Thread& thread) {
  std::string out = "P" + std::to_string(thread.index) + "@" + std::string(model::scopeName(model::Scope::Cta)) + " " +
                    std::to_string(thread.cta);
  if (thread.cluster)
    out += "," + std::string(model::scopeName(model::Scope::Cluster)) + " " + std::to_string(*thread.cluster);
  if (thread.warp) out += ",warp " + std::to_string(*thread.warp);
  return out + "," + std::string(model::scopeName(model::Scope::Gpu)) + " " + std::to_string(thread.gpu);
}

bool usedInCode(const Program& program, const std::string& name) {
  for (const Thread& thread : program.threads)
    for (const Instruction& ins : thread.code)
      for (const Operand& operand : ins.operands)
        if (operand.kind == Operand::Kind::Location && operand.name == name) return true;
  return false;
}

// `s @ shared cta 1, gpu 0 size 16 = 0`, `b @ mbarrier cta 0`, `tm @ tensormap = 0`, `t @ tmem cta 0 = 0`.
std::string kindDeclaration(const Location& location) {
  std::string kind;
  switch (location.kind) {
    case LocationKind::Memory: kind = location.ownerCta ? "shared" : "global"; break;
    case LocationKind::MBarrier: kind = "mbarrier"; break;
    case LocationKind::TensorMap: kind = "tensormap"; break;
    case LocationKind::Tmem: kind = "tmem"; break;
  }
  std::string out = location.name + " @ " + kind;
  if (location.ownerCta)
    out += " cta " + std::to_string(*location.ownerCta) + ", gpu " + std::to_string(location.ownerGpu);
  const int defaultSize = location.kind == LocationKind::MBarrier ? 8 : 4;
  if (location.size != 4 && location.size != defaultSize) out += " size " + std::to_string(location.size);
  if (location.kind != LocationKind::MBarrier) out += " = " + std::to_string(location.init);
  return out;
}

std::vector<std::string> initEntries(const Program& program) {
  std::vector<std::string> entries;
  for (const Location& location : program.locations) {
    if (location.aliasProxy)
      entries.push_back(location.name + " @ " + std::string(model::proxyName(*location.aliasProxy)) + " aliases " +
                        location.aliasOf);
    else if (location.kind != LocationKind::Memory || location.ownerCta || location.size != 4)
      entries.push_back(kindDeclaration(location));
    // A location first seen in the code comes back by itself; one that lost its uses must be declared.
    else if (!location.addressOf.empty())
      entries.push_back(location.name + "=&" + location.addressOf);
    else if (location.declared || !usedInCode(program, location.name))
      entries.push_back(location.name + "=" + std::to_string(location.init));
  }
  for (const RegInit& init : program.regInits)
    entries.push_back("P" + std::to_string(init.thread) + ":" + init.reg + "=" +
                      (init.addressOf.empty() ? std::to_string(init.value) : "&" + init.addressOf));
  return entries;
}

std::string valueText(const CondValue& value) {
  switch (value.kind) {
    case CondValue::Kind::Constant: return std::to_string(value.value);
    case CondValue::Kind::Register: return "P" + std::to_string(value.thread) + ":" + value.name;
    case CondValue::Kind::Location: return value.name;
  }
  return {};
}

// Binding strength as the parser reads it: \/ below /\ below ~ below atoms.
int precedence(const CondExpr& e) {
  switch (e.kind) {
    case CondExpr::Kind::Or: return 1;
    case CondExpr::Kind::And: return 2;
    case CondExpr::Kind::Not: return 3;
    default: return 4;
  }
}

std::string exprText(const CondExpr& e) {
  auto wrapped = [](std::string text, bool parenthesise) { return parenthesise ? "(" + text + ")" : text; };
  return foldCondition<std::string>(
      e,
      [](const CondExpr& leaf) -> std::string {
        switch (leaf.kind) {
          case CondExpr::Kind::True: return "true";
          case CondExpr::Kind::False: return "false";
          default: return valueText(leaf.lhs) + " " + std::string(cmpOperator(leaf.cmp)) + " " + valueText(leaf.rhs);
        }
      },
      [&](const CondExpr& node, std::string* args) -> std::string {
        if (node.kind == CondExpr::Kind::Not) return "~" + wrapped(std::move(args[0]), precedence(*node.a) < precedence(node));
        // The parser groups to the left, so a right operand of the same strength keeps its parentheses. The left
        // text is moved, so a long chain is written in linear time.
        const std::string op = node.kind == CondExpr::Kind::And ? " /\\ " : " \\/ ";
        std::string text = wrapped(std::move(args[0]), precedence(*node.a) < precedence(node));
        text += op;
        text += wrapped(std::move(args[1]), precedence(*node.b) <= precedence(node));
        return text;
      });
}

std::string conditionText(const Condition& condition) {
  std::string quantifier;
  switch (condition.quantifier) {
    case Condition::Quantifier::Exists: quantifier = "exists"; break;
    case Condition::Quantifier::NotExists: quantifier = "~exists"; break;
    case Condition::Quantifier::Forall: quantifier = "forall"; break;
  }
  return quantifier + " (" + exprText(*condition.expr) + ")";
}

std::string padded(const std::string& cell, std::size_t width) { return cell + std::string(width - cell.size(), ' '); }

}  // namespace

std::string instructionText(const Instruction& ins) {
  switch (ins.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return memoryText(ins);
    case Opcode::Fence: return fenceText(ins);
    case Opcode::FenceProxy: return proxyFenceText(ins);
    case Opcode::BarSync:
    case Opcode::BarArrive: return barrierText(ins);
    case Opcode::Local: return localText(ins);
    case Opcode::Setp: return setpText(ins);
    case Opcode::Branch: return branchText(ins);
    case Opcode::Goto: return gotoText(ins);
    case Opcode::Label: return ins.operands.at(0).name + ":";
    default: break;
  }
  // The Hopper-era instructions are printed as the parser normalised them: their many qualifiers are
  // kept verbatim in `text`, which re-parses to the same instruction.
  if (isHopperEra(ins.op)) return ins.text;
  throw std::logic_error("LitmusWriter: unknown opcode");
}

std::string renderLitmus(const LitmusText& text) {
  std::string out = "PTX " + text.name + "\n";
  for (const auto& description : text.descriptions) out += "\"" + description + "\"\n";
  out += "{\n";
  for (const auto& entry : text.initEntries) out += " " + entry + ";";
  out += text.initEntries.empty() ? "}\n" : "\n}\n";
  std::vector<std::size_t> widths;
  std::size_t rows = 0;
  for (std::size_t t = 0; t < text.threadHeaders.size(); ++t) {
    std::size_t width = text.threadHeaders[t].size();
    for (const auto& cell : text.cells[t]) width = std::max(width, cell.size());
    widths.push_back(width);
    rows = std::max(rows, text.cells[t].size());
  }
  auto row = [&](auto cellOf) {
    std::string line;
    for (std::size_t t = 0; t < widths.size(); ++t) line += (t == 0 ? " " : " | ") + padded(cellOf(t), widths[t]);
    return line + " ;\n";
  };
  out += row([&](std::size_t t) { return text.threadHeaders[t]; });
  for (std::size_t r = 0; r < rows; ++r)
    out += row([&](std::size_t t) { return r < text.cells[t].size() ? text.cells[t][r] : std::string(); });
  if (!text.observed.empty()) {
    out += "locations [";
    for (const auto& entry : text.observed) out += entry + ";";
    out += "]\n";
  }
  if (!text.filter.empty()) out += "filter " + text.filter + "\n";
  return out + text.condition + "\n";
}

std::string writeLitmus(const Program& program) {
  LitmusText text;
  text.name = program.name;
  text.descriptions = program.descriptions;
  text.initEntries = initEntries(program);
  for (const Thread& thread : program.threads) {
    text.threadHeaders.push_back(threadHeader(thread));
    text.cells.push_back(threadCells(thread));
  }
  for (const CondValue& value : program.observed) text.observed.push_back(valueText(value));
  if (program.filter) text.filter = "(" + exprText(*program.filter) + ")";
  text.condition = conditionText(program.condition);
  return renderLitmus(text);
}

}  // namespace ptxmm::frontend
