// Register instructions of the partial evaluator: computed exactly when every input is concrete (IntegerOps,
// FloatOps), written as residual Local/Setp code when some input is symbolic and the IR can express the PTX
// result exactly (ResidualBuilder keeps values canonical), and otherwise made opaque, never approximated.

#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {
namespace {

constexpr PtxType kU32{PtxType::Kind::Unsigned, 32};
constexpr PtxType kPred{PtxType::Kind::Pred, 1};

std::uint64_t u(const AbsValue& v) { return static_cast<std::uint64_t>(v.bits); }

// A decimal float immediate is kept as f64 bits; an f32 instruction reads it rounded to single precision.
std::uint64_t floatBits(const DOperand& o, const AbsValue& v, int width) {
  if (width != 32 || o.kind != DOperand::Kind::Imm || o.imm.kind != Immediate::Kind::Decimal) return u(v);
  return narrowToF32(u(v));
}

// `and` with 0 and `or` with every bit set give that constant whatever the other operand holds, opaque
// included. nvcc compiles `if (flag && t < n)` to `or.pred %p, %t_ge_n, %flag_is_0`: left symbolic, a thread
// with t >= n forks on the loaded flag and walks a guarded side no execution takes (its accesses reported).
std::optional<std::uint64_t> absorbed(const DecodedInstruction& d, const std::vector<AbsValue>& in) {
  if ((d.op != PeOp::And && d.op != PeOp::Or) || d.opaqueType || in.size() != 2) return std::nullopt;
  const std::uint64_t mask = widthMask(d.type.bits);
  const std::uint64_t absorbing = d.op == PeOp::And ? 0 : mask;
  for (const AbsValue& v : in)
    if (v.isConcrete() && (u(v) & mask) == absorbing) return absorbing;
  return std::nullopt;
}

// The result of `d` on concrete inputs, with its type; nullopt when PTX leaves it unspecified or ptxmm does not
// evaluate it.
std::optional<std::pair<std::uint64_t, PtxType>> concreteResult(const DecodedInstruction& d, const std::vector<AbsValue>& in) {
  const int w = d.type.bits;
  const bool s = d.type.isSigned();
  auto a = [&](std::size_t i) { return u(in[i]); };
  auto same = [&](std::uint64_t v) { return std::optional(std::pair{v & widthMask(w), d.type}); };
  if (d.opaqueType) return std::nullopt;
  switch (d.op) {
    case PeOp::Add: return d.sat ? same(intAddSat(a(0), a(1), w, false)) : same(a(0) + a(1));
    case PeOp::Sub: return d.sat ? same(intAddSat(a(0), a(1), w, true)) : same(a(0) - a(1));
    case PeOp::Mul: return std::pair{intMul(a(0), a(1), w, s, d.hi, d.wide), d.wide ? d.type2 : d.type};
    case PeOp::Mad: {
      if (d.sat) return std::nullopt;
      const PtxType t = d.wide ? d.type2 : d.type;
      return std::pair{(intMul(a(0), a(1), w, s, d.hi, d.wide) + a(2)) & widthMask(t.bits), t};
    }
    case PeOp::Sad: {
      const std::int64_t x = extend(a(0), w, s), y = extend(a(1), w, s);
      const std::uint64_t diff = x < y ? static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x)
                                       : static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y);
      return same(a(2) + diff);
    }
    case PeOp::Div: {
      const auto q = intDiv(a(0), a(1), w, s);
      return q ? same(*q) : std::nullopt;
    }
    case PeOp::Rem: {
      const auto r = intRem(a(0), a(1), w, s);
      return r ? same(*r) : std::nullopt;
    }
    case PeOp::Abs: return same(intAbs(a(0), w));
    case PeOp::Neg: return same(~a(0) + 1);
    case PeOp::Min: return same(intMin(a(0), a(1), w, s));
    case PeOp::Max: return same(intMax(a(0), a(1), w, s));
    case PeOp::And: return same(a(0) & a(1));
    case PeOp::Or: return same(a(0) | a(1));
    case PeOp::Xor: return same(a(0) ^ a(1));
    case PeOp::Not: return d.type.kind == PtxType::Kind::Pred ? same(a(0) == 0 ? 1 : 0) : same(~a(0));
    case PeOp::Cnot: return same((a(0) & widthMask(w)) == 0 ? 1 : 0);
    case PeOp::Shl: return same(intShl(a(0), a(1) & 0xffffffff, w));
    case PeOp::Shr: return same(intShr(a(0), a(1) & 0xffffffff, w, s));
    case PeOp::Shf: {
      const std::uint64_t c = a(2) & 0xffffffff;
      const std::uint64_t n = d.shiftClamp ? std::min<std::uint64_t>(c, 32) : c & 31;
      const std::uint64_t both = ((a(1) & 0xffffffff) << 32) | (a(0) & 0xffffffff);
      return same(d.shfLeft ? (n >= 64 ? 0 : (both << n) >> 32) : both >> n);
    }
    case PeOp::Selp: return same(a(2) != 0 ? a(0) : a(1));
    case PeOp::Bfe: return same(bitExtract(a(0), a(1), a(2), w, s));
    case PeOp::Bfi: return same(bitInsert(a(0), a(1), a(2), a(3), w));
    case PeOp::Bfind: return std::pair{bitFind(a(0), w, s, d.hi), kU32};
    case PeOp::Prmt: return same(bytePermute(a(0), a(1), a(2), d.mode));
    case PeOp::Popc: return std::pair{popCount(a(0), w), kU32};
    case PeOp::Clz: return std::pair{leadingZeros(a(0), w), kU32};
    case PeOp::Brev: return same(bitReverse(a(0), w));
    case PeOp::Copysign: {
      const std::uint64_t sign = std::uint64_t{1} << (w - 1);
      return same((a(1) & ~sign) | (a(0) & sign));
    }
    default: return std::nullopt;
  }
}

}  // namespace

void ThreadEvaluator::assign(ResidualBuilder& b, int r, const Operand& value, int valueBits, AbsValue::Kind kind, int provenance) {
  const int bits = regBits(r);
  const Operand v = bits == 1 || valueBits <= bits ? value : b.signExtend(value, bits);
  if (v.kind != Operand::Kind::Register || !retarget(v.name, regName(r))) b.local(LocalOp::Mov, regName(r), {v});
  setResidual(r, kind, provenance);
}

void ThreadEvaluator::arithmetic(const DecodedInstruction& d) {
  switch (d.op) {
    case PeOp::Mov: return move(d);
    case PeOp::Cvt: return convert(d);
    case PeOp::Setp: return setp(d);
    default: break;
  }
  if (d.ops.empty()) fail(d, "missing operands");
  std::vector<AbsValue> in;
  std::vector<std::string> names;
  bool concrete = true;
  for (std::size_t i = 1; i < d.ops.size(); ++i) {
    // mma.sync's fragments are vectors of registers: each element is a source of the opaque results.
    const bool fragment = d.op == PeOp::OpaqueResult && d.ops[i].kind == DOperand::Kind::Vector;
    for (const DOperand& o : fragment ? d.ops[i].elements : std::vector<DOperand>{d.ops[i]}) {
      names.emplace_back();
      in.push_back(read(o, names.back()));
      concrete = concrete && in.back().isConcrete();
    }
  }
  const DOperand& dst = d.ops[0];
  if (d.op == PeOp::OpaqueResult || dst.kind != DOperand::Kind::Reg) {  // results ptxmm does not compute
    std::vector<Operand> deps;
    for (std::size_t i = 0; i < in.size(); ++i)
      if (in[i].inRegister()) deps.push_back(ResidualBuilder::reg(names[i]));
    if (dst.kind == DOperand::Kind::Reg) setOpaque(dst.reg, deps);
    for (const auto& e : dst.elements)
      if (e.kind == DOperand::Kind::Reg) setOpaque(e.reg, deps);
    if (dst.second >= 0) setOpaque(dst.second, deps);
    return;
  }
  if (concrete) {
    if (d.op == PeOp::FloatArith) {
      const int w = d.type.bits;
      std::uint64_t x[3] = {0, 0, 0};
      for (std::size_t i = 0; i < in.size() && i < 3; ++i) x[i] = floatBits(d.ops[i + 1], in[i], w);
      if (d.opaqueType) return setOpaque(dst.reg, {});
      const auto r = floatArith(d.floatOp, x[0], x[1], x[2], w, {d.nearest, d.ftz, d.sat});
      if (r) return setConcrete(dst.reg, *r, d.type);
      return setOpaque(dst.reg, {});
    }
    if (d.op == PeOp::Testp) return setConcrete(dst.reg, floatTest(static_cast<FloatTest>(d.mode), u(in[0]), d.type.bits), kPred);
    if (const auto r = concreteResult(d, in)) return setConcrete(dst.reg, r->first, r->second);
    return setOpaque(dst.reg, {});  // unspecified by PTX (division by zero) or not evaluated
  }
  if (const auto r = absorbed(d, in)) return setConcrete(dst.reg, *r, d.type);
  symbolicArithmetic(d, in, names);
}

// ---- mov, cvt, setp ---------------------------------------------------------------------------------------

void ThreadEvaluator::move(const DecodedInstruction& d) {
  if (d.ops.size() != 2) fail(d, "mov takes two operands");
  const DOperand& dst = d.ops[0];
  const DOperand& src = d.ops[1];
  ResidualBuilder b = builder();
  if (src.kind == DOperand::Kind::Symbol) {  // the address of a variable in its state space
    const auto address = symbolAddress(src, d.type.bits);
    if (!address) fail(d, "the address of this symbol is not supported");
    return setConcrete(dst.reg, *address, d.type);
  }
  if (src.kind == DOperand::Kind::Vector) {  // pack: {lo, hi} -> wide
    const int part = d.type.bits / static_cast<int>(src.elements.size());
    std::uint64_t bits = 0;
    bool concrete = true;
    std::vector<std::pair<AbsValue, std::string>> parts;
    for (std::size_t i = 0; i < src.elements.size(); ++i) {
      std::string name;
      const AbsValue v = read(src.elements[i], name);
      parts.emplace_back(v, name);
      concrete = concrete && v.isConcrete();
      if (v.isConcrete()) bits |= (u(v) & widthMask(part)) << (part * static_cast<int>(i));
    }
    if (concrete) return setConcrete(dst.reg, bits, d.type);
    Operand acc = ResidualBuilder::imm(0);
    bool opaque = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      opaque = opaque || parts[i].first.kind == AbsValue::Kind::Opaque;
      const Operand piece = b.zeroExtend(irOperand(parts[i].first, parts[i].second, part), part);
      const Operand shifted = i == 0 ? piece : b.apply(LocalOp::Shl, {piece, ResidualBuilder::imm(part * static_cast<int>(i))});
      acc = i == 0 ? shifted : b.apply(LocalOp::Or, {acc, shifted});
    }
    return assign(b, dst.reg, acc, 64, opaque ? AbsValue::Kind::Opaque : AbsValue::Kind::Symbolic, -1);
  }
  std::string name;
  const AbsValue v = read(src, name);
  if (dst.kind == DOperand::Kind::Vector) {  // unpack: wide -> {lo, hi}
    const int part = d.type.bits / static_cast<int>(dst.elements.size());
    const PtxType partType{PtxType::Kind::Bits, part};
    for (std::size_t i = 0; i < dst.elements.size(); ++i) {
      const DOperand& e = dst.elements[i];
      if (e.kind != DOperand::Kind::Reg) continue;
      if (v.isConcrete()) {
        setConcrete(e.reg, u(v) >> (part * static_cast<int>(i)), partType);
        continue;
      }
      const Operand shifted = i == 0 ? ResidualBuilder::reg(name)
                                     : b.apply(LocalOp::Shr, {ResidualBuilder::reg(name), ResidualBuilder::imm(part * static_cast<int>(i))});
      assign(b, e.reg, shifted, 64, v.kind, -1);
    }
    return;
  }
  if (dst.kind != DOperand::Kind::Reg) fail(d, "mov needs a register destination");
  if (v.isConcrete()) return setConcrete(dst.reg, u(v), d.type);
  if (v.kind == AbsValue::Kind::Opaque) return setOpaque(dst.reg, {ResidualBuilder::reg(name)}, v.provenance);
  assign(b, dst.reg, ResidualBuilder::reg(name), src.kind == DOperand::Kind::Reg ? regBits(src.reg) : 64, v.kind, v.provenance);
}

void ThreadEvaluator::convert(const DecodedInstruction& d) {
  if (d.ops.size() != 2 || d.ops[0].kind != DOperand::Kind::Reg) fail(d, "cvt takes a register and a source");
  const PtxType to = d.type, from = d.type2;
  std::string name;
  const AbsValue v = read(d.ops[1], name);
  const int dst = d.ops[0].reg;
  const bool intToInt = !to.isFloat() && !from.isFloat();
  if (v.isConcrete()) {
    std::optional<std::uint64_t> r;
    if (d.opaqueType) {
      r = std::nullopt;
    } else if (intToInt) {
      r = intConvert(u(v), from.bits, from.isSigned(), to.bits, to.isSigned(), d.sat);
    } else if (from.isFloat() && !to.isFloat()) {
      r = floatToInt(floatBits(d.ops[1], v, from.bits), from.bits, to.bits, to.isSigned(),
                     d.integralRounding.value_or(Rounding::Zero), d.ftz);
    } else if (!from.isFloat()) {
      r = intToFloat(u(v), from.bits, from.isSigned(), to.bits, d.rounding);
    } else {
      r = floatToFloat(floatBits(d.ops[1], v, from.bits), from.bits, to.bits, d.integralRounding, d.rounding,
                       {d.nearest, d.ftz, d.sat});
    }
    if (r) return setConcrete(dst, *r, to);
    return setOpaque(dst, {});
  }
  if (!intToInt || d.opaqueType || v.kind == AbsValue::Kind::Opaque) return setOpaque(dst, {ResidualBuilder::reg(name)}, v.provenance);
  ResidualBuilder b = builder();
  Operand x = b.signExtend(ResidualBuilder::reg(name), from.bits);
  if (!from.isSigned()) x = b.zeroExtend(x, from.bits);
  if (d.sat) {
    if (from.bits == 64 && !from.isSigned()) return setOpaque(dst, {ResidualBuilder::reg(name)});
    const std::int64_t hi = to.isSigned() || to.bits == 64 ? static_cast<std::int64_t>(widthMask(to.bits - 1))
                                                            : static_cast<std::int64_t>(widthMask(to.bits));
    const std::int64_t lo = to.isSigned() ? -hi - 1 : 0;
    x = b.apply(LocalOp::Min, {b.apply(LocalOp::Max, {x, ResidualBuilder::imm(lo)}), ResidualBuilder::imm(hi)});
  }
  x = to.isSigned() ? b.signExtend(x, to.bits) : b.zeroExtend(x, to.bits);
  assign(b, dst, x, to.isSigned() ? to.bits : std::min(64, to.bits + 1), AbsValue::Kind::Symbolic, v.provenance);
}

void ThreadEvaluator::noteEquality(const DecodedInstruction& d, const AbsValue& a, const AbsValue& b) {
  if (d.icmp != IntCmp::Eq && d.icmp != IntCmp::Ne) return;
  const int w = d.type.bits;
  // Only an exactly computed register of the compared width is pinned: an opaque value only approximates what
  // the residual code holds, and a wider register keeps bits the comparison did not look at.
  auto pin = [&](const DOperand& o, const AbsValue& v, const AbsValue& other) {
    if (o.kind != DOperand::Kind::Reg || v.kind != AbsValue::Kind::Symbolic || !other.isConcrete() || regBits(o.reg) != w)
      return false;
    equality_ = EqualityFact{state_.pc, state_.frames.size(), d.ops[0].reg, o.reg,
                             signExtend(static_cast<std::uint64_t>(other.bits), w), d.icmp == IntCmp::Eq};
    return true;
  };
  if (!pin(d.ops[1], a, b)) pin(d.ops[2], b, a);
}

void ThreadEvaluator::setp(const DecodedInstruction& d) {
  if (d.ops.size() < 3 || d.ops[0].kind != DOperand::Kind::Reg) fail(d, "setp takes a predicate and two sources");
  std::string na, nb, nc;
  const AbsValue a = read(d.ops[1], na), b = read(d.ops[2], nb);
  std::optional<AbsValue> c;
  if (d.combine != LocalOp::Mov) {
    if (d.ops.size() != 4) fail(d, "setp with .and/.or/.xor takes a fourth predicate");
    c = read(d.ops[3], nc);
  }
  const int w = d.type.bits;
  const bool negC = d.combine != LocalOp::Mov && d.ops[3].negated;
  auto combine = [&](bool t, bool cv) {
    cv = cv != negC;
    switch (d.combine) {
      case LocalOp::And: return t && cv;
      case LocalOp::Or: return t || cv;
      case LocalOp::Xor: return t != cv;
      default: return t;
    }
  };
  const int p = d.ops[0].reg, q = d.ops[0].second;
  equality_.reset();
  if (a.isConcrete() && b.isConcrete() && (!c || c->isConcrete())) {
    const bool t = d.floatCmp ? floatCompare(d.fcmp, floatBits(d.ops[1], a, w), floatBits(d.ops[2], b, w), w, d.ftz)
                              : intCompare(d.icmp, u(a), u(b), w, d.type.isSigned());
    const bool cv = c && c->bits != 0;
    setConcrete(p, combine(t, cv) ? 1 : 0, kPred);
    if (q >= 0) setConcrete(q, combine(!t, cv) ? 1 : 0, kPred);
    return;
  }
  // A known predicate decides .and (false) and .or (true) alone, as absorbed() does for and/or.
  if (c && c->isConcrete() && (d.combine == LocalOp::And || d.combine == LocalOp::Or)) {
    const bool cv = (c->bits != 0) != negC;
    if (cv == (d.combine == LocalOp::Or)) {
      setConcrete(p, cv ? 1 : 0, kPred);
      if (q >= 0) setConcrete(q, cv ? 1 : 0, kPred);
      return;
    }
  }
  ResidualBuilder rb = builder();
  std::vector<Operand> deps;
  for (const auto& [v, n] : {std::pair{a, na}, std::pair{b, nb}})
    if (v.inRegister()) deps.push_back(ResidualBuilder::reg(n));
  if (c && c->inRegister()) deps.push_back(ResidualBuilder::reg(nc));
  if (d.floatCmp || d.opaqueType || a.kind == AbsValue::Kind::Opaque || b.kind == AbsValue::Kind::Opaque ||
      (c && c->kind == AbsValue::Kind::Opaque)) {
    setOpaque(p, deps);
    if (q >= 0) setOpaque(q, deps);
    return;
  }
  Operand x = irOperand(a, na, w), y = irOperand(b, nb, w);
  if (a.inRegister() && d.ops[1].kind == DOperand::Kind::Reg && regBits(d.ops[1].reg) > w) x = rb.signExtend(x, w);
  if (b.inRegister() && d.ops[2].kind == DOperand::Kind::Reg && regBits(d.ops[2].reg) > w) y = rb.signExtend(y, w);
  if (d.unsignedCmp) {
    x = rb.unsignedKey(x, w);
    y = rb.unsignedKey(y, w);
  }
  const CmpOp cmp = static_cast<CmpOp>(static_cast<int>(d.icmp));
  const std::string t = c ? temp() : regName(p);
  rb.setp(cmp, t, x, y);
  auto combined = [&](const Operand& truth, const std::string& into) {
    if (!c) return rb.local(LocalOp::Mov, into, {truth});
    Operand cv = irOperand(*c, nc, 1);
    if (negC) cv = c->isConcrete() ? ResidualBuilder::imm(cv.value == 0 ? 1 : 0) : rb.apply(LocalOp::Xor, {cv, ResidualBuilder::imm(1)});
    rb.local(d.combine, into, {truth, cv});
  };
  if (c) combined(ResidualBuilder::reg(t), regName(p));
  setResidual(p, AbsValue::Kind::Symbolic, -1);
  if (!c && q < 0) noteEquality(d, a, b);
  if (q >= 0) {
    combined(rb.apply(LocalOp::Xor, {ResidualBuilder::reg(t), ResidualBuilder::imm(1)}), regName(q));
    setResidual(q, AbsValue::Kind::Symbolic, -1);
  }
}

// ---- residual arithmetic ------------------------------------------------------------------------------------

void ThreadEvaluator::symbolicArithmetic(const DecodedInstruction& d, const std::vector<AbsValue>& in,
                                         const std::vector<std::string>& names) {
  const int dst = d.ops[0].reg;
  const int w = d.type.bits;
  const bool s = d.type.isSigned();
  const bool pred = d.type.kind == PtxType::Kind::Pred;
  std::vector<Operand> deps;
  bool anyOpaque = false;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i].inRegister()) {
      deps.push_back(ResidualBuilder::reg(names[i]));
      anyOpaque = anyOpaque || in[i].kind == AbsValue::Kind::Opaque;
    }
  // Pointer provenance survives adding or subtracting a non-pointer: an address plus an offset read from memory
  // stays in the address's buffer.
  int provenance = -1;
  if (d.op == PeOp::Add || d.op == PeOp::Sub || (d.op == PeOp::Mad && d.wide)) {
    const std::size_t base = d.op == PeOp::Mad ? 2 : 0;
    for (std::size_t i = base; i < in.size(); ++i) {
      const int pi = in[i].isConcrete() ? ctx_.memory.bufferOf(u(in[i]), addressing_) : in[i].provenance;
      if (pi >= 0) provenance = provenance < 0 ? pi : -2;
    }
    if (provenance == -2) provenance = -1;
  }
  auto opaque = [&] { setOpaque(dst, deps, provenance); };
  if (anyOpaque || d.opaqueType || d.op == PeOp::FloatArith || d.op == PeOp::Testp || d.op == PeOp::Copysign) return opaque();
  ResidualBuilder b = builder();
  // A residual register is canonical at its own width: only a wider one needs narrowing to `width`.
  auto op = [&](std::size_t i, int width) {
    const Operand x = irOperand(in[i], names[i], width);
    const DOperand& o = d.ops[i + 1];
    return in[i].inRegister() && o.kind == DOperand::Kind::Reg && regBits(o.reg) > width ? b.signExtend(x, width) : x;
  };
  auto unsignedOp = [&](std::size_t i, int width) { return b.zeroExtend(op(i, width), width); };
  auto imm = ResidualBuilder::imm;
  // finish: a 64-bit result wrapped to `width` bits as PTX does; exact: a result already canonical at `width`.
  auto exact = [&](const Operand& result, int width) { assign(b, dst, result, width, AbsValue::Kind::Symbolic, provenance); };
  auto finish = [&](const Operand& result, int width) { exact(b.signExtend(result, width), width); };
  switch (d.op) {
    case PeOp::Add:
    case PeOp::Sub: {
      const LocalOp o = d.op == PeOp::Add ? LocalOp::Add : LocalOp::Sub;
      Operand r = b.apply(o, {op(0, w), op(1, w)});
      if (d.sat) r = b.apply(LocalOp::Min, {b.apply(LocalOp::Max, {r, imm(-(std::int64_t{1} << (w - 1)))}), imm((std::int64_t{1} << (w - 1)) - 1)});
      return finish(r, w);
    }
    case PeOp::Mul:
    case PeOp::Mad: {
      if (d.sat || (w == 64 && (d.hi || d.wide))) return opaque();
      Operand x = s ? op(0, w) : unsignedOp(0, w), y = s ? op(1, w) : unsignedOp(1, w);
      if (w == 64) return finish(d.op == PeOp::Mad ? b.apply(LocalOp::Add, {b.apply(LocalOp::Mul, {x, y}), op(2, w)})
                                                   : b.apply(LocalOp::Mul, {x, y}), 64);
      Operand r = b.apply(LocalOp::Mul, {x, y});
      int width = w;
      if (d.hi) r = b.signExtend(b.apply(LocalOp::Shr, {r, imm(w)}), w);
      if (d.wide && d.op == PeOp::Mul) return exact(r, 2 * w);
      if (d.wide) width = 2 * w;
      if (d.op == PeOp::Mad) r = b.apply(LocalOp::Add, {r, op(2, width)});
      return finish(r, width);
    }
    case PeOp::Sad: {
      if (w == 64) return opaque();
      const Operand diff = b.apply(LocalOp::Sub, {s ? op(0, w) : unsignedOp(0, w), s ? op(1, w) : unsignedOp(1, w)});
      const Operand abs = b.apply(LocalOp::Max, {diff, b.apply(LocalOp::Neg, {diff})});
      return finish(b.apply(LocalOp::Add, {abs, op(2, w)}), w);
    }
    case PeOp::Div:
    case PeOp::Rem: {
      // Exact only when the divisor is a known non-zero constant (and not -1 for signed values: min / -1 is unspecified).
      if (!in[1].isConcrete() || (w == 64 && !s)) return opaque();
      const std::int64_t divisor = extend(u(in[1]), w, s);
      if (divisor == 0 || (s && divisor == -1)) return opaque();
      const Operand x = s ? op(0, w) : unsignedOp(0, w);
      return finish(b.apply(d.op == PeOp::Div ? LocalOp::Div : LocalOp::Rem, {x, imm(divisor)}), w);
    }
    case PeOp::Abs: {
      const Operand x = op(0, w);
      return finish(b.apply(LocalOp::Max, {x, b.apply(LocalOp::Neg, {x})}), w);
    }
    case PeOp::Neg: return finish(b.apply(LocalOp::Neg, {op(0, w)}), w);
    case PeOp::Min:
    case PeOp::Max: {
      const LocalOp o = d.op == PeOp::Min ? LocalOp::Min : LocalOp::Max;
      if (s) return exact(b.apply(o, {op(0, w), op(1, w)}), w);
      const Operand r = b.apply(o, {b.unsignedKey(op(0, w), w), b.unsignedKey(op(1, w), w)});
      return w == 64 ? exact(b.unsignedKey(r, 64), 64) : finish(r, w);  // the sign-bit flip undoes itself
    }
    case PeOp::And:
    case PeOp::Or:
    case PeOp::Xor: {
      const LocalOp o = d.op == PeOp::And ? LocalOp::And : d.op == PeOp::Or ? LocalOp::Or : LocalOp::Xor;
      return exact(b.apply(o, {op(0, pred ? 64 : w), op(1, pred ? 64 : w)}), pred ? 64 : w);
    }
    case PeOp::Not:
      if (pred) return exact(b.apply(LocalOp::Xor, {op(0, 64), imm(1)}), 64);
      return exact(b.apply(LocalOp::Not, {op(0, w)}), w);
    case PeOp::Cnot: {
      const std::string t = temp();
      b.setp(CmpOp::Eq, t, op(0, w), imm(0));
      return exact(ResidualBuilder::reg(t), w);
    }
    case PeOp::Shl:
    case PeOp::Shr: {
      const Operand x = d.op == PeOp::Shr && !s ? unsignedOp(0, w) : op(0, w);
      if (in[1].isConcrete()) {
        const std::uint64_t n = u(in[1]) & 0xffffffff;
        if (n >= static_cast<std::uint64_t>(w) && !(d.op == PeOp::Shr && s)) return setConcrete(dst, 0, d.type);
        const std::int64_t k = static_cast<std::int64_t>(std::min<std::uint64_t>(n, 63));
        if (d.op == PeOp::Shl) return finish(b.apply(LocalOp::Shl, {x, imm(k)}), w);
        if (s) return exact(b.apply(LocalOp::Shr, {x, imm(k)}), w);
        if (w < 64) return finish(b.apply(LocalOp::Shr, {x, imm(k)}), w);
        // 64-bit logical shift right by k (1..63): arithmetic shift, then clear the copied sign bits.
        if (k == 0) return exact(x, w);
        return finish(b.apply(LocalOp::And, {b.apply(LocalOp::Shr, {x, imm(k)}), imm(static_cast<std::int64_t>(widthMask(64 - static_cast<int>(k))))}), w);
      }
      if (d.op == PeOp::Shr && !s && w == 64) return opaque();
      const Operand amount = b.zeroExtend(op(1, 32), 32);
      if (w < 64 || d.op == PeOp::Shr) return finish(b.apply(d.op == PeOp::Shl ? LocalOp::Shl : LocalOp::Shr, {x, amount}), w);
      // shl.b64 by an amount of 64 or more gives 0, but the IR clamps amounts to 63: shift twice, by at most 32 each.
      const Operand first = b.apply(LocalOp::Min, {amount, imm(32)});
      const Operand rest = b.apply(LocalOp::Sub, {b.apply(LocalOp::Min, {amount, imm(64)}), first});
      return finish(b.apply(LocalOp::Shl, {b.apply(LocalOp::Shl, {x, first}), rest}), 64);
    }
    case PeOp::Selp: {
      if (in[2].isConcrete()) {  // the choice is known, one source is residual
        const std::size_t pick = in[2].bits != 0 ? 0 : 1;
        if (in[pick].isConcrete()) return setConcrete(dst, u(in[pick]), d.type);
        provenance = in[pick].provenance;
        return exact(op(pick, w), w);
      }
      if (in[0].provenance >= 0 && in[0].provenance == in[1].provenance) provenance = in[0].provenance;
      return exact(b.select(irOperand(in[2], names[2], 64), op(0, w), op(1, w)), w);
    }
    case PeOp::Bfe: {
      if (!in[1].isConcrete() || !in[2].isConcrete()) return opaque();
      const std::int64_t pos = in[1].bits & 0xff, len = in[2].bits & 0xff;
      if (len == 0) return setConcrete(dst, 0, d.type);
      if (pos + len > w) return opaque();
      if (s) return exact(b.apply(LocalOp::Shr, {b.apply(LocalOp::Shl, {op(0, w), imm(64 - pos - len)}), imm(64 - len)}), w);
      const Operand shifted = b.apply(LocalOp::Shr, {unsignedOp(0, w), imm(pos)});
      return finish(b.apply(LocalOp::And, {shifted, imm(static_cast<std::int64_t>(widthMask(static_cast<int>(len))))}), w);
    }
    case PeOp::Bfi: {
      if (!in[2].isConcrete() || !in[3].isConcrete()) return opaque();
      const std::int64_t pos = in[2].bits & 0xff, len = in[3].bits & 0xff;
      if (len == 0 || pos >= w) return exact(op(1, w), w);
      if (pos + len > w) return opaque();
      const auto field = static_cast<std::int64_t>(widthMask(static_cast<int>(len)) << pos);
      const Operand kept = b.apply(LocalOp::And, {op(1, w), imm(~field)});
      const Operand inserted = b.apply(LocalOp::And, {b.apply(LocalOp::Shl, {op(0, w), imm(pos)}), imm(field)});
      return finish(b.apply(LocalOp::Or, {kept, inserted}), w);
    }
    default: return opaque();
  }
}

}  // namespace ptxmm::frontend::ptx
