// Residual register code (ResidualBuilder.hpp).
#include "frontend/ptx/ResidualBuilder.hpp"

#include <limits>

namespace ptxmm::frontend::ptx {

Operand ResidualBuilder::imm(std::int64_t v) {
  Operand o;
  o.kind = Operand::Kind::Immediate;
  o.value = v;
  return o;
}

Operand ResidualBuilder::reg(const std::string& name) {
  Operand o;
  o.kind = Operand::Kind::Register;
  o.name = name;
  return o;
}

void ResidualBuilder::local(LocalOp op, const std::string& dst, std::vector<Operand> srcs) {
  Instruction in = prototype_;
  in.op = Opcode::Local;
  in.localOp = op;
  in.operands = {reg(dst)};
  for (auto& s : srcs) in.operands.push_back(std::move(s));
  emit_(std::move(in));
}

Operand ResidualBuilder::apply(LocalOp op, std::vector<Operand> srcs) {
  const std::string t = temp_();
  local(op, t, std::move(srcs));
  return reg(t);
}

void ResidualBuilder::setp(CmpOp cmp, const std::string& dst, const Operand& a, const Operand& b) {
  Instruction in = prototype_;
  in.op = Opcode::Setp;
  in.cmp = cmp;
  in.operands = {reg(dst), a, b};
  emit_(std::move(in));
}

Operand ResidualBuilder::signExtend(const Operand& x, int width) {
  if (width >= 64) return x;
  if (x.kind == Operand::Kind::Immediate) {
    const int shift = 64 - width;
    return imm(static_cast<std::int64_t>(static_cast<std::uint64_t>(x.value) << shift) >> shift);
  }
  const Operand up = apply(LocalOp::Shl, {x, imm(64 - width)});
  return apply(LocalOp::Shr, {up, imm(64 - width)});
}

Operand ResidualBuilder::zeroExtend(const Operand& x, int width) {
  if (width >= 64) return x;
  const std::int64_t mask = static_cast<std::int64_t>((std::uint64_t{1} << width) - 1);
  if (x.kind == Operand::Kind::Immediate) return imm(x.value & mask);
  return apply(LocalOp::And, {x, imm(mask)});
}

Operand ResidualBuilder::unsignedKey(const Operand& x, int width) {
  if (width < 64) return zeroExtend(x, width);
  const std::int64_t sign = std::numeric_limits<std::int64_t>::min();
  if (x.kind == Operand::Kind::Immediate) return imm(x.value ^ sign);
  return apply(LocalOp::Xor, {x, imm(sign)});
}

Operand ResidualBuilder::select(const Operand& c, const Operand& a, const Operand& b) {
  const bool constants = a.kind == Operand::Kind::Immediate && b.kind == Operand::Kind::Immediate;
  const Operand diff = constants ? imm(static_cast<std::int64_t>(static_cast<std::uint64_t>(a.value) - static_cast<std::uint64_t>(b.value)))
                                 : apply(LocalOp::Sub, {a, b});
  const Operand scaled = constants && diff.value == 1 ? c : apply(LocalOp::Mul, {diff, c});
  return b.kind == Operand::Kind::Immediate && b.value == 0 ? scaled : apply(LocalOp::Add, {scaled, b});
}

}  // namespace ptxmm::frontend::ptx
