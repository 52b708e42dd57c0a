// Writing residual register code: the IR's Local and Setp instructions work on 64-bit signed integers, while
// PTX registers are 8 to 64 bits wide, signed or unsigned. Values are kept canonical (the low `width` bits
// sign-extended, AbsValue.hpp), so a PTX operation on symbolic values becomes a short sequence that computes
// exactly what PTX computes: wrap the 64-bit result back to the width (shift left, arithmetic shift right),
// zero-extend before unsigned operations, flip the sign bit to compare 64-bit unsigned values with a signed
// comparison. Each helper returns the operand holding its result (a fresh temporary, or an immediate).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend::ptx {

class ResidualBuilder {
 public:
  /// `emit` receives each instruction (a copy of `prototype` with op, operands and register op filled in);
  /// `temp` names a fresh temporary register.
  ResidualBuilder(std::function<void(Instruction)> emit, Instruction prototype, std::function<std::string()> temp)
      : emit_(std::move(emit)), prototype_(std::move(prototype)), temp_(std::move(temp)) {}

  static Operand imm(std::int64_t v);
  static Operand reg(const std::string& name);

  /// dst := op(srcs) with the IR's 64-bit semantics (Opaque: an unknown value depending on srcs).
  void local(LocalOp op, const std::string& dst, std::vector<Operand> srcs);
  /// op(srcs) into a fresh temporary.
  Operand apply(LocalOp op, std::vector<Operand> srcs);
  /// dst := (a cmp b) as 0/1, with the IR's signed 64-bit comparison.
  void setp(CmpOp cmp, const std::string& dst, const Operand& a, const Operand& b);

  /// x (canonical at some width >= `width`) made canonical at `width`: its low `width` bits sign-extended.
  Operand signExtend(const Operand& x, int width);
  /// The low `width` bits of x, zero-extended (non-negative for width < 64).
  Operand zeroExtend(const Operand& x, int width);
  /// An operand whose signed order is the unsigned order of x's low `width` bits.
  Operand unsignedKey(const Operand& x, int width);
  /// c ? a : b for c in {0, 1}, exactly (b + c * (a - b) with 64-bit wrap-around).
  Operand select(const Operand& c, const Operand& a, const Operand& b);

 private:
  std::function<void(Instruction)> emit_;
  Instruction prototype_;
  std::function<std::string()> temp_;
};

}  // namespace ptxmm::frontend::ptx
