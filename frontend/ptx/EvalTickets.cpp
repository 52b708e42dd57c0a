// Ticket terms in the partial evaluator (TicketTerm.hpp): an atom.add with a concrete increment makes its
// destination a fresh ticket; mov, integer cvt, add/sub of a constant, mul/mad/shl by a constant carry a term
// from a source register to the destination; shfl.sync carries it between lanes (CtaRunner.cpp). Every other
// instruction drops it (setResidual/setOpaque/setConcrete start from a value without one).
#include <algorithm>

#include "frontend/ptx/IntegerOps.hpp"
#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {

std::optional<TicketTerm> ThreadEvaluator::carriedTicket(const DecodedInstruction& d) {
  if (ctx_.pass != Pass::Emit || d.ops.size() < 2 || d.ops[0].kind != DOperand::Kind::Reg || d.type.isFloat() ||
      d.opaqueType || d.sat)
    return std::nullopt;
  // The term of source i, or the canonical value of a constant source at width `w`.
  // A source register read at the instruction's width (cvt: the source type's) is one more stage.
  auto term = [&](std::size_t i) -> std::optional<TicketTerm> {
    const DOperand& o = d.ops[i];
    if (o.kind != DOperand::Kind::Reg || !reg(o.reg).ticket) return std::nullopt;
    return ticket_term::at(*reg(o.reg).ticket, std::min(regBits(o.reg), d.op == PeOp::Cvt ? d.type2.bits : d.type.bits));
  };
  auto constant = [&](std::size_t i, int w, bool isSigned) -> std::optional<std::int64_t> {
    const DOperand& o = d.ops[i];
    if (o.kind == DOperand::Kind::Imm) return extend(o.imm.bits, w, isSigned);
    if (o.kind == DOperand::Kind::Reg && reg(o.reg).isConcrete()) return extend(static_cast<std::uint64_t>(reg(o.reg).bits), w, isSigned);
    return std::nullopt;
  };
  const int w = d.type.bits;
  const bool s = d.type.isSigned();
  std::optional<TicketTerm> r;
  switch (d.op) {
    case PeOp::Mov:
      if (d.ops.size() == 2 && term(1)) r = ticket_term::at(*term(1), w);
      break;
    case PeOp::Cvt:
      if (d.ops.size() == 2 && term(1) && !d.type2.isFloat()) r = ticket_term::at(*term(1), w);
      break;
    case PeOp::Add:
    case PeOp::Sub:
      if (d.ops.size() != 3) break;
      if (term(1) && constant(2, w, true)) r = ticket_term::plus(*term(1), d.op == PeOp::Add ? *constant(2, w, true) : -*constant(2, w, true));
      else if (d.op == PeOp::Add && term(2) && constant(1, w, true)) r = ticket_term::plus(*term(2), *constant(1, w, true));
      if (r) r = ticket_term::at(*r, w);
      break;
    case PeOp::Mul:
    case PeOp::Mad: {
      if (d.hi || d.ops.size() != (d.op == PeOp::Mul ? 3u : 4u)) break;
      const int width = d.wide ? 2 * w : w;
      if (term(1) && constant(2, w, s)) r = ticket_term::times(*term(1), *constant(2, w, s));
      else if (term(2) && constant(1, w, s)) r = ticket_term::times(*term(2), *constant(1, w, s));
      if (d.op == PeOp::Mad) {
        if (r && constant(3, width, true)) r = ticket_term::plus(*r, *constant(3, width, true));
        else if (!r && term(3) && constant(1, w, s) && constant(2, w, s))
          r = ticket_term::plus(*term(3), *constant(1, w, s) * *constant(2, w, s));
        else r.reset();
      }
      if (r) r = ticket_term::at(*r, width);
      break;
    }
    case PeOp::Shl:
      if (d.ops.size() == 3 && term(1) && constant(2, 32, false) && *constant(2, 32, false) < 31) {
        r = ticket_term::times(*term(1), std::int64_t{1} << *constant(2, 32, false));
        if (r) r = ticket_term::at(*r, w);
      }
      break;
    default: break;
  }
  if (r) r = ticket_term::at(*r, regBits(d.ops[0].reg));
  return r;
}

void ThreadEvaluator::keepTicket(const DecodedInstruction& d, const std::optional<TicketTerm>& term) {
  if (!term) return;
  AbsValue& v = reg(d.ops[0].reg);
  if (v.inRegister()) v.ticket = term;  // a concrete result is exact already
}

void ThreadEvaluator::newTicket(const DecodedInstruction& d, int dst, const Access& counter, std::int64_t increment) {
  if (ctx_.pass != Pass::Emit || dst < 0 || d.atomOp != AtomOp::Add || d.type.isFloat() || d.vector != 1 || increment < 0)
    return;
  const int id = static_cast<int>(ctx_.tickets.size());
  const auto term = ticket_term::fresh(id, regBits(dst) == 64 && d.type.bits == 64 ? 64 : 32);
  if (!term || (d.type.bits != 32 && d.type.bits != 64)) return;
  ctx_.tickets.push_back({index_, ctx_.origin(state_.frames.back().function, state_.pc), counter.buffer, counter.offset,
                          d.type.bytes(), increment});
  reg(dst).ticket = term;
}

std::optional<TicketAddress> ThreadEvaluator::ticketAddress(const Access& a, int size) const {
  if (!a.ticket || a.provenance < 0) return std::nullopt;
  const Buffer& buffer = ctx_.memory.buffers()[static_cast<std::size_t>(a.provenance)];
  if (buffer.space == Buffer::Space::Shared) return std::nullopt;
  // The buffer's first byte, checked to be where the global address space puts it.
  const std::uint64_t base = ctx_.memory.globalAddress(a.provenance);
  const auto hit = ctx_.memory.resolve(base, 1, AddrSpace::Global, addressing_);
  const auto* h = std::get_if<LaunchMemory::Hit>(&hit);
  if (!h || h->buffer != a.provenance || h->offset != 0) return std::nullopt;
  const auto term = ticket_term::plus(*a.ticket, -static_cast<std::int64_t>(base));
  if (!term) return std::nullopt;
  return TicketAddress{*term, a.provenance, size, !state_.divergent, std::nullopt};
}

}  // namespace ptxmm::frontend::ptx
