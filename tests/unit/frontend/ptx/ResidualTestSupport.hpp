// Test support for the instantiator: instantiating PTX text with a launch, finding instructions in the residual
// code, and a small interpreter of one thread's residual code (register arithmetic with the IR's 64-bit
// semantics, loads and stores on named locations, branches), so tests can check what the code computes.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "model/TextFile.hpp"
#include "model/ValueExpr.hpp"

namespace ptxmm::frontend::ptxtest {

/// Instantiates `ptx` (kernel `kernel`, or the only one) on a grid x block launch with `--arg` specs.
inline KernelProgram instantiate(const std::string& ptx, const std::string& grid, const std::string& block,
                                 const std::vector<std::string>& args = {}, const std::string& kernel = "") {
  LaunchConfig launch;
  launch.kernel = kernel;
  launch.grid = parseDim3(grid, "--grid");
  launch.block = parseDim3(block, "--block");
  for (const auto& a : args) launch.args.push_back(parseArgSpec(a));
  InstantiateOptions options;
  // The fixtures' .file lines name where they were compiled: read the .cu next to the .ptx instead.
  options.readSource = [](const std::string& path) {
    return model::readTextFile(std::filesystem::path(PTXMM_SOURCE_DIR "/tests/unit/frontend/ptx/fixtures") /
                               std::filesystem::path(path).filename());
  };
  return instantiateKernel(ptx, "k.ptx", "k.ptx", launch, options);
}

/// The instructions of a thread with opcode `op`.
inline std::vector<const Instruction*> ofKind(const Thread& t, Opcode op) {
  std::vector<const Instruction*> out;
  for (const auto& in : t.code)
    if (in.op == op) out.push_back(&in);
  return out;
}

/// The location operand of a memory instruction.
inline std::string locationOf(const Instruction& in) {
  for (const auto& o : in.operands)
    if (o.kind == Operand::Kind::Location) return o.name;
  return {};
}

/// Runs one thread's residual code: `memory` maps location names to values (missing: 0) and receives the
/// stores. Returns false when the code uses an opaque value or runs too long.
inline bool interpret(const Thread& t, std::map<std::string, std::int64_t>& memory, int maxSteps = 100000) {
  using model::ValueOp;
  std::map<std::string, std::int64_t> regs;
  std::map<std::string, std::size_t> labels;
  for (std::size_t i = 0; i < t.code.size(); ++i)
    if (t.code[i].op == Opcode::Label) labels[t.code[i].operands[0].name] = i;
  auto value = [&](const Operand& o) { return o.kind == Operand::Kind::Immediate ? o.value : regs[o.name]; };
  static const std::map<LocalOp, ValueOp> kOps = {
      {LocalOp::Add, ValueOp::Add}, {LocalOp::Sub, ValueOp::Sub}, {LocalOp::Mul, ValueOp::Mul}, {LocalOp::Div, ValueOp::Div},
      {LocalOp::Rem, ValueOp::Rem}, {LocalOp::And, ValueOp::And}, {LocalOp::Or, ValueOp::Or},   {LocalOp::Xor, ValueOp::Xor},
      {LocalOp::Shl, ValueOp::Shl}, {LocalOp::Shr, ValueOp::Shr}, {LocalOp::Min, ValueOp::Min}, {LocalOp::Max, ValueOp::Max},
      {LocalOp::Neg, ValueOp::Neg}, {LocalOp::Not, ValueOp::Not}};
  static const std::map<CmpOp, ValueOp> kCmp = {{CmpOp::Eq, ValueOp::Eq}, {CmpOp::Ne, ValueOp::Ne}, {CmpOp::Lt, ValueOp::Lt},
                                                {CmpOp::Le, ValueOp::Le}, {CmpOp::Gt, ValueOp::Gt}, {CmpOp::Ge, ValueOp::Ge}};
  std::size_t pc = 0;
  for (int steps = 0; pc < t.code.size(); ++steps) {
    if (steps > maxSteps) return false;
    const Instruction& in = t.code[pc++];
    const auto& ops = in.operands;
    switch (in.op) {
      case Opcode::Local: {
        if (in.localOp == LocalOp::Opaque) return false;
        std::vector<std::int64_t> args;
        for (std::size_t k = 1; k < ops.size(); ++k) args.push_back(value(ops[k]));
        regs[ops[0].name] = in.localOp == LocalOp::Mov ? args.at(0) : model::value::applyConcrete(kOps.at(in.localOp), args);
        break;
      }
      case Opcode::Setp: regs[ops[0].name] = model::value::applyConcrete(kCmp.at(in.cmp), {value(ops[1]), value(ops[2])}); break;
      case Opcode::Ld: regs[ops[0].name] = memory[ops[1].name]; break;
      case Opcode::St: memory[ops[0].name] = value(ops[1]); break;
      case Opcode::Atom: {
        const std::int64_t old = memory[ops[1].name];
        regs[ops[0].name] = old;
        if (in.atomOp == AtomOp::Add) memory[ops[1].name] = old + value(ops[2]);
        if (in.atomOp == AtomOp::Exch) memory[ops[1].name] = value(ops[2]);
        break;
      }
      case Opcode::Branch:
        if ((value(ops[0]) != 0) != in.negatePredicate) pc = labels.at(ops.back().name);
        break;
      case Opcode::Goto: pc = labels.at(ops.back().name); break;
      default: break;
    }
  }
  return true;
}

}  // namespace ptxmm::frontend::ptxtest
