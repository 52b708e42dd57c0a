// ldmatrix and stmatrix in the partial evaluator (ThreadEvaluator.hpp, MatrixFragments.hpp). The warp meets at
// the instruction (CtaRunner gives each lane the addresses of its fragment's pieces, computed from the row
// addresses other lanes give); each lane then performs exactly the accesses of the bytes its registers receive
// or hold: weak generic-proxy ld / st of 4 bytes (2 with .trans) in shared memory, so races, barriers and the
// loaded values are those of ordinary accesses to the same bytes. An address no lane computes concretely makes the
// piece a symbolic access (UNKNOWN where it matters), as for any ld / st.
#include "frontend/ptx/MatrixFragments.hpp"
#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {

AbsValue ThreadEvaluator::matrixRowAddress(const DecodedInstruction& d) {
  const DOperand& p = d.ops[d.op == PeOp::MatrixLoad ? 1 : 0];
  if (p.reg >= 0) {
    std::string name;
    const AbsValue v = read(DOperand::ofRegister(p.reg), name);
    if (!v.isConcrete()) return v.kind == AbsValue::Kind::Symbolic ? AbsValue::symbolic(v.provenance) : AbsValue::opaque(v.provenance);
    return AbsValue::concrete(v.bits + p.offset);
  }
  const auto at = symbolAddress(p, 64);
  if (!at) fail(d, "the address of a matrix row must be in shared memory");
  return AbsValue::concrete(static_cast<std::int64_t>(*at));
}

void ThreadEvaluator::matrixAccess(const DecodedInstruction& d, const std::vector<AbsValue>& addresses) {
  const bool load = d.op == PeOp::MatrixLoad;
  const DOperand& regs = d.ops[load ? 0 : 1];
  const auto pieces = fragmentPieces(where_.lane, d.mode == 1);
  ResidualBuilder b = builder();
  for (int j = 0; j < d.vector; ++j) {
    const int r = (d.vector == 1 ? regs : regs.elements[static_cast<std::size_t>(j)]).reg;
    std::string name;
    const AbsValue held = load ? AbsValue{} : read(DOperand::ofRegister(r), name);
    std::uint64_t loadedBits = 0;
    Operand loaded = ResidualBuilder::imm(0);
    AbsValue::Kind loadedKind = AbsValue::Kind::Concrete;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      const FragmentPiece& piece = pieces[k];
      const AbsValue& at = addresses.at(static_cast<std::size_t>(j) * pieces.size() + k);
      Access a;
      if (at.isConcrete()) {
        DOperand o;
        o.kind = DOperand::Kind::Address;
        o.offset = at.bits;
        a = resolve(o, 0, piece.bytes, d.space);
      } else {
        a.kind = Access::Kind::Symbolic;
        a.provenance = at.provenance;
        a.reason = "the address of row " + std::to_string(piece.row) + " of matrix " + std::to_string(j) + " (given by lane " +
                   std::to_string(8 * j + piece.row) + ") depends on " +
                   (at.kind == AbsValue::Kind::Symbolic ? "a value read from memory some thread writes" : "a value ptxmm does not compute");
      }
      const int bits = piece.bytes * 8;
      // What this piece holds (load) or stores (store), canonical at `bits`.
      Operand value = ResidualBuilder::imm(0);
      bool valueConcrete = false;
      std::uint64_t valueBits = 0;
      if (!load) {
        if (held.isConcrete()) {
          valueBits = static_cast<std::uint64_t>(held.bits) >> piece.shift;
          value = ResidualBuilder::imm(signExtend(valueBits, bits));
        } else {
          const Operand x = ResidualBuilder::reg(name);
          value = b.signExtend(piece.shift ? b.apply(LocalOp::Shr, {x, ResidualBuilder::imm(piece.shift)}) : x, bits);
        }
      }
      switch (a.kind) {
        case Access::Kind::Buffer: break;
        case Access::Kind::Symbolic:
        case Access::Kind::Miss:
          if (a.kind == Access::Kind::Symbolic) symbolicAccess(a, !load);
          else outOfBounds(a.reason);
          if (!load) recordWrite(a, piece.bytes);
          loadedKind = AbsValue::Kind::Opaque;
          continue;
        default: fail(d, "the address of a matrix row must be in shared memory");
      }
      const Buffer& buffer = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)];
      if (buffer.space != Buffer::Space::Shared) fail(d, "the address of a matrix row must be in shared memory");
      ctx_.accessTypes[static_cast<std::size_t>(a.buffer)].emplace(static_cast<int>(d.type.kind), bits);
      if (load && readOnly(a, piece.bytes)) {  // no thread writes these bytes: their initial value
        const AbsValue init = initialValue(a, piece.bytes);
        if (init.isConcrete()) {
          valueConcrete = true;
          valueBits = static_cast<std::uint64_t>(init.bits);
        } else {
          loadedKind = AbsValue::Kind::Opaque;
          continue;
        }
      }
      if (!load) recordWrite(a, piece.bytes);
      if (!valueConcrete) {
        Instruction in = *d.residual;
        const Instruction p = prototype();
        in.text = p.text;
        in.pos = p.pos;
        in.origin = p.origin;
        in.space = buffer.ownerCta == where_.cta ? StateSpace::SharedCta : StateSpace::SharedCluster;
        const Operand location{Operand::Kind::Location, ctx_.pass == Pass::Emit ? locationFor(a, piece.bytes) : std::string(), 0, {}};
        if (!load) {
          in.operands = {location, value};
          emit(std::move(in));
          continue;
        }
        value = ResidualBuilder::reg(temp());
        in.operands = {value, location};
        emit(std::move(in));
        if (loadedKind == AbsValue::Kind::Concrete) loadedKind = AbsValue::Kind::Symbolic;
      }
      // The register gets the piece's bits at its position.
      if (valueConcrete) {
        loadedBits |= (valueBits & widthMask(bits)) << piece.shift;
        value = ResidualBuilder::imm(static_cast<std::int64_t>((valueBits & widthMask(bits)) << piece.shift));
      } else {
        value = b.zeroExtend(value, bits);
        if (piece.shift) value = b.apply(LocalOp::Shl, {value, ResidualBuilder::imm(piece.shift)});
      }
      loaded = k == 0 ? value : b.apply(LocalOp::Or, {loaded, value});
    }
    if (!load) continue;
    if (loadedKind == AbsValue::Kind::Concrete) setConcrete(r, loadedBits, PtxType{PtxType::Kind::Bits, 32});
    else if (loadedKind == AbsValue::Kind::Opaque) setOpaque(r, {});
    else assign(b, r, loaded, 33, AbsValue::Kind::Symbolic, -1);
  }
}

void ThreadEvaluator::matrixUnmet(const DecodedInstruction& d) {
  const DOperand& regs = d.ops[d.op == PeOp::MatrixLoad ? 0 : 1];
  if (d.op == PeOp::MatrixLoad) {
    for (int j = 0; j < d.vector; ++j) setOpaque((d.vector == 1 ? regs : regs.elements[static_cast<std::size_t>(j)]).reg, {});
    return;
  }
  Access anywhere;
  anywhere.kind = Access::Kind::Symbolic;
  recordWrite(anywhere, 16);
}

}  // namespace ptxmm::frontend::ptx
