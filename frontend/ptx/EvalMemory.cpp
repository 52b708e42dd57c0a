// Memory instructions of the partial evaluator: addresses resolved to buffers (LaunchMemory), loads of bytes no
// thread writes read concretely, thread-private memory (.local, call parameters) evaluated exactly, everything
// else written as residual ld/st/atom/red and synchronisation instructions on named Program locations.
// Vector accesses become one access per element (PTX promises no more for them [ptx-model §1.2]).
#include <algorithm>

#include "frontend/ptx/LaunchArgs.hpp"

#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {
namespace {

using Role = HopperRole;

AddrSpace addrSpace(StateSpace s) {
  switch (s) {
    case StateSpace::Global: return AddrSpace::Global;
    case StateSpace::Shared:
    case StateSpace::SharedCta: return AddrSpace::Shared;
    case StateSpace::SharedCluster: return AddrSpace::SharedCluster;
    case StateSpace::Unspecified: break;
  }
  return AddrSpace::Generic;
}

bool isMbarrierOp(Opcode op) {
  switch (op) {
    case Opcode::MbarInit:
    case Opcode::MbarArrive:
    case Opcode::MbarExpectTx:
    case Opcode::MbarCompleteTx:
    case Opcode::MbarWait:
    case Opcode::CpAsyncMbarArrive: return true;
    default: return false;
  }
}

}  // namespace

// ---- addresses --------------------------------------------------------------------------------------------

std::optional<std::uint64_t> ThreadEvaluator::symbolAddress(const DOperand& o, int width) const {
  (void)width;
  const auto offset = static_cast<std::uint64_t>(o.offset);
  switch (o.symbol.kind) {
    case SymbolRef::Kind::Shared: return ctx_.memory.sharedAddress(o.symbol.index) + offset;
    case SymbolRef::Kind::Global: {
      const int buffer = ctx_.globalBuffer[static_cast<std::size_t>(o.symbol.index)];
      if (buffer < 0) return std::nullopt;
      return ctx_.memory.globalAddress(buffer) + offset;
    }
    case SymbolRef::Kind::KernelParam:  // only a tensor map's address is taken (to name it in a tensor copy)
      if (!ctx_.tensorMaps.at(static_cast<std::size_t>(o.symbol.index))) return std::nullopt;
      return kParamBase + static_cast<std::uint64_t>(o.symbol.index) * kParamStride + offset;
    case SymbolRef::Kind::Local:
      return kLocalStart + static_cast<std::uint64_t>(state_.frames.back().localBase +
                                                      code().localOffsets[static_cast<std::size_t>(o.symbol.index)]) + offset;
    default: return std::nullopt;
  }
}

ThreadEvaluator::Access ThreadEvaluator::resolve(const DOperand& address, std::int64_t extra, std::int64_t size, AddrSpace space) {
  Access a;
  if (address.kind != DOperand::Kind::Address) fail(instruction(), "expected an address operand");
  std::uint64_t at = 0;
  if (address.reg >= 0) {
    std::string name;
    const AbsValue v = read(DOperand::ofRegister(address.reg), name);
    if (!v.isConcrete()) {
      a.kind = Access::Kind::Symbolic;
      a.provenance = v.provenance;
      if (v.ticket) a.ticket = ticket_term::plus(*v.ticket, address.offset + extra);
      a.reason = "the address (" + name + ") depends on " +
                 (v.kind == AbsValue::Kind::Opaque ? std::string("a value ptxmm does not compute")
                                                   : std::string("a value read from memory some thread writes"));
      return a;
    }
    at = static_cast<std::uint64_t>(v.bits);
  } else {
    const Frame& f = state_.frames.back();
    switch (address.symbol.kind) {
      case SymbolRef::Kind::KernelParam:
        a.kind = Access::Kind::KernelParam;
        a.param = address.symbol.index;
        a.offset = address.offset + extra;
        return a;
      case SymbolRef::Kind::FuncParam:
        a.kind = Access::Kind::Private;
        a.offset = f.paramAddress.at(static_cast<std::size_t>(address.symbol.index)) + address.offset + extra;
        return a;
      case SymbolRef::Kind::Local:
        a.kind = Access::Kind::Private;
        a.offset = f.localBase + code().localOffsets[static_cast<std::size_t>(address.symbol.index)] + address.offset + extra;
        return a;
      case SymbolRef::Kind::None: at = 0; break;
      default: {
        const auto base = symbolAddress(address, 64);
        if (!base) fail(instruction(), "unsupported address operand");
        at = *base - static_cast<std::uint64_t>(address.offset);
      }
    }
  }
  at += static_cast<std::uint64_t>(address.offset + extra);
  if (LaunchMemory::paramAt(at)) fail(instruction(), "accessing the bytes of a tensor-map parameter is not supported");
  if (space == AddrSpace::Param) {
    a.reason = "a .param access through a register is not supported";
    return a;
  }
  const auto r = ctx_.memory.resolve(at, size, space, addressing_);
  if (const auto* hit = std::get_if<LaunchMemory::Hit>(&r)) {
    a.kind = Access::Kind::Buffer;
    a.buffer = hit->buffer;
    a.offset = hit->offset;
    auto& touched = ctx_.touchedBytes[static_cast<std::size_t>(a.buffer)];
    touched = std::max(touched, a.offset + size);
  } else if (const auto* local = std::get_if<LaunchMemory::LocalHit>(&r)) {
    a.kind = Access::Kind::Private;
    a.offset = local->offset;
  } else {
    a.reason = std::get<LaunchMemory::Miss>(r).detail;
  }
  return a;
}

std::string ThreadEvaluator::locationFor(const Access& a, int size) {
  const Opcode op = instruction().residual ? instruction().residual->op : Opcode::Ld;
  const LocationKind kind = isMbarrierOp(op) ? LocationKind::MBarrier : LocationKind::Memory;
  return ctx_.locations[static_cast<std::size_t>(ctx_.location(a.buffer, a.offset, size, kind))].name;
}

void ThreadEvaluator::recordWrite(const Access& a, std::int64_t size) {
  if (ctx_.pass != Pass::Discover) return;
  if (a.kind == Access::Kind::Buffer) return ctx_.writes.addRange(a.buffer, a.offset, size);
  if (a.kind != Access::Kind::Symbolic) return;
  for (int b : reach(a)) ctx_.writes.addBuffer(b);
}

// A store through an unknown address may write anywhere it can reach: its buffer when the address is known to
// point into one, else every buffer of the space it names. A .local address reaches the thread's own frame only,
// never a launch buffer (PTX state spaces: .local is private to the thread).
std::vector<int> ThreadEvaluator::reach(const Access& a) const {
  const AddrSpace space = instruction().space;
  const auto& buffers = ctx_.memory.buffers();
  std::vector<int> out;
  if (space == AddrSpace::Local) return out;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    const bool shared = buffers[b].space == Buffer::Space::Shared;
    const bool reached = a.provenance >= 0 ? static_cast<int>(b) == a.provenance || (shared && buffers[static_cast<std::size_t>(a.provenance)].space == Buffer::Space::Shared)
                         : space == AddrSpace::Global ? !shared
                         : space == AddrSpace::Shared || space == AddrSpace::SharedCluster ? shared
                                                                                           : true;
    if (reached) out.push_back(static_cast<int>(b));
  }
  return out;
}

bool ThreadEvaluator::readOnly(const Access& a, std::int64_t size) const {
  const Buffer& b = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)];
  if (b.space == Buffer::Space::Const) return true;
  return ctx_.pass == Pass::Emit && !ctx_.writes.mayWrite(a.buffer, a.offset, size);
}

AbsValue ThreadEvaluator::initialValue(const Access& a, int size) const {
  const Buffer& b = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)];
  if (b.space == Buffer::Space::Shared) return AbsValue::opaque();  // shared memory starts undefined
  std::uint64_t bits = 0;
  for (int i = size - 1; i >= 0; --i) {
    const auto at = static_cast<std::size_t>(a.offset + i);
    bits = bits << 8 | (at < b.init.size() ? b.init[at] : 0);
  }
  return AbsValue::concrete(signExtend(bits, size * 8));
}

void ThreadEvaluator::symbolicAccess(const Access& a, bool write, std::optional<TicketAddress> address) {
  if (ctx_.pass != Pass::Emit) return;
  std::string reason = a.reason;
  if (address)  // one finding per thread, origin and reason is kept: name everything the checker uses
    reason += " (" + std::to_string(address->term.scale) + " * ticket " + std::to_string(address->term.ticket) + " + " +
              std::to_string(address->term.addend) + " bytes into its buffer, " + std::to_string(address->size) + " bytes" +
              (address->stored ? ", storing " + std::to_string(*address->stored) : std::string()) +
              (address->always ? "" : ", on some paths") +
              (address->term.narrowed ? ", 32-bit steps up to " + std::to_string(address->term.narrowScale) + " * ticket + " +
                                            std::to_string(address->term.narrowHigh) + " from " + std::to_string(address->term.narrowLow)
                                      : std::string()) + ")";
  ctx_.symbolic.push_back({index_, ctx_.origin(state_.frames.back().function, state_.pc), std::move(reason), write,
                           write ? reach(a) : std::vector<int>{}, std::move(address)});
}

void ThreadEvaluator::outOfBounds(const std::string& detail) {
  if (ctx_.pass != Pass::Emit) return;
  ctx_.outOfBounds.push_back({index_, ctx_.origin(state_.frames.back().function, state_.pc), detail});
}

// ---- thread-private memory --------------------------------------------------------------------------------

AbsValue ThreadEvaluator::privateRead(std::int64_t offset, int size, std::string& residual) {
  auto& priv = state_.priv;
  if (auto it = priv.find(offset); it != priv.end() && it->second.size == size && it->second.value.inRegister()) {
    residual = "$l" + std::to_string(offset);
    return it->second.value;
  }
  std::uint64_t bits = 0;
  for (int i = size - 1; i >= 0; --i) {
    auto it = priv.find(offset + i);
    if (it == priv.end() || it->second.size != 1 || !it->second.value.isConcrete()) {
      residual = temp();
      builder().local(LocalOp::Opaque, residual, {});  // never written, or written differently: unpredictable
      return AbsValue::opaque();
    }
    bits = bits << 8 | (static_cast<std::uint64_t>(it->second.value.bits) & 0xff);
  }
  return AbsValue::concrete(signExtend(bits, size * 8));
}

void ThreadEvaluator::privateWrite(std::int64_t offset, int size, const AbsValue& v, const std::string& residual) {
  auto& priv = state_.priv;
  for (auto it = priv.lower_bound(offset - 8); it != priv.end() && it->first < offset + size;) {
    if (it->first + it->second.size > offset) it = priv.erase(it);
    else ++it;
  }
  if (v.isConcrete()) {
    for (int i = 0; i < size; ++i)
      priv[offset + i] = {1, AbsValue::concrete((static_cast<std::uint64_t>(v.bits) >> (8 * i)) & 0xff)};
    return;
  }
  ResidualBuilder b = builder();
  b.local(LocalOp::Mov, "$l" + std::to_string(offset), {b.signExtend(ResidualBuilder::reg(residual), size * 8)});
  AbsValue kept = v;
  if (kept.ticket) kept.ticket = ticket_term::at(*kept.ticket, size * 8);  // the slot keeps `size` bytes of it
  priv[offset] = {size, kept};
}

// ---- ld, st, atom, red --------------------------------------------------------------------------------------

void ThreadEvaluator::memoryAccess(const DecodedInstruction& d) {
  const bool load = d.op == PeOp::Ld, store = d.op == PeOp::St, atom = d.op == PeOp::Atom;
  const std::size_t addrIndex = load || atom ? 1 : 0;
  if (d.ops.size() <= addrIndex + (load ? 0 : 1)) fail(d, "missing operands");
  const DOperand& address = d.ops[addrIndex];
  const int w = d.type.bits, size = d.type.bytes();
  const DOperand* data = load || atom ? &d.ops[0] : &d.ops[1];
  if (d.vector > 1 && (data->kind != DOperand::Kind::Vector || static_cast<int>(data->elements.size()) != d.vector))
    fail(d, "a ." + std::string("v") + std::to_string(d.vector) + " access needs a vector of " + std::to_string(d.vector) + " registers");
  if (d.vector == 1 && data->kind == DOperand::Kind::Vector) fail(d, "an access without .v2/.v4 takes one register, not a vector");
  ResidualBuilder b = builder();
  const Sem sem = d.residual->sem;
  const bool weak = sem == Sem::Default || sem == Sem::Weak;
  for (int e = 0; e < d.vector; ++e) {
    const DOperand& element = d.vector > 1 ? data->elements[static_cast<std::size_t>(e)] : *data;
    const int dst = (load || atom) && element.kind == DOperand::Kind::Reg ? element.reg : -1;
    const Access a = resolve(address, std::int64_t{e} * size, size, d.space);
    // The value stored (st) or combined (atom, red), canonical at the access width.
    auto value = [&](const DOperand& o) {
      std::string name;
      const AbsValue v = read(o, name);
      Operand x = irOperand(v, name, w);
      if (v.inRegister() && o.kind == DOperand::Kind::Reg && regBits(o.reg) > w) x = b.signExtend(x, w);
      return std::pair{v, x};
    };
    switch (a.kind) {
      case Access::Kind::KernelParam: {
        if (!load) fail(d, "kernel parameters are read-only");
        if (ctx_.tensorMaps.at(static_cast<std::size_t>(a.param)))
          fail(d, "accessing the bytes of a tensor-map parameter is not supported");
        const auto& bytes = ctx_.kernelParams.at(static_cast<std::size_t>(a.param));
        if (a.offset < 0 || a.offset + size > static_cast<std::int64_t>(bytes.size())) fail(d, "read past the end of the parameter");
        std::uint64_t bits = 0;
        for (int i = size - 1; i >= 0; --i) bits = bits << 8 | bytes[static_cast<std::size_t>(a.offset + i)];
        if (dst >= 0) setConcrete(dst, bits, d.type);
        continue;
      }
      case Access::Kind::Private: {
        if (atom || d.op == PeOp::Red) fail(d, "atomics on local memory are not supported");
        if (load) {
          std::string name;
          const AbsValue v = privateRead(a.offset, size, name);
          if (dst < 0) continue;
          if (v.isConcrete()) {
            setConcrete(dst, static_cast<std::uint64_t>(v.bits), d.type);
          } else {
            const bool widen = !d.type.isSigned() && regBits(dst) > w;
            const Operand x = widen ? b.zeroExtend(ResidualBuilder::reg(name), w) : ResidualBuilder::reg(name);
            assign(b, dst, x, widen ? w + 1 : w, v.kind, v.provenance);
          }
        } else {
          std::string name;
          const AbsValue v = read(element, name);
          const AbsValue stored = v.isConcrete() ? AbsValue::concrete(signExtend(static_cast<std::uint64_t>(v.bits), w)) : v;
          privateWrite(a.offset, size, stored, name);
        }
        continue;
      }
      case Access::Kind::Symbolic:
      case Access::Kind::Miss:
        if (a.kind == Access::Kind::Symbolic) {
          auto address = ticketAddress(a, size);
          if (address && store) {
            std::string name;
            const AbsValue v = read(element, name);
            if (v.isConcrete()) address->stored = signExtend(static_cast<std::uint64_t>(v.bits), w);
          }
          symbolicAccess(a, !load, std::move(address));
        } else {
          outOfBounds(a.reason);
        }
        if (!load) recordWrite(a, size);
        // It may have overwritten any private byte: what the thread stored there before is no longer known.
        if (!load && a.kind == Access::Kind::Symbolic && d.space == AddrSpace::Local) state_.priv.clear();
        if (dst >= 0) setOpaque(dst, {}, -1);
        continue;
      case Access::Kind::Buffer: break;
    }
    ctx_.accessTypes[static_cast<std::size_t>(a.buffer)].emplace(static_cast<int>(d.type.kind), w);
    if (load && readOnly(a, size)) {  // no thread writes these bytes: the load reads their initial value
      const AbsValue init = initialValue(a, size);
      if (dst >= 0) {
        if (init.isConcrete()) setConcrete(dst, static_cast<std::uint64_t>(init.bits), d.type);
        else setOpaque(dst, {});
      }
      if (!weak && ctx_.pass == Pass::Emit) {  // a strong load still takes part in synchronisation
        Instruction in = *d.residual;
        const Instruction p = prototype();
        in.text = p.text, in.pos = p.pos, in.origin = p.origin;
        in.space = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)].space == Buffer::Space::Shared
                       ? (ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)].ownerCta == where_.cta ? StateSpace::SharedCta : StateSpace::SharedCluster)
                       : StateSpace::Global;
        in.operands = {ResidualBuilder::reg(temp()), Operand{Operand::Kind::Location, locationFor(a, size), 0, {}}};
        emit(std::move(in));
      }
      continue;
    }
    if (load && d.nc && ctx_.pass == Pass::Emit)
      fail(d, "ld.global.nc (or ldu) reads memory that some thread of the launch writes: the non-coherent path is "
              "outside the PTX memory model [ptx-model §4.11]");
    if (!load) recordWrite(a, size);
    Instruction in = *d.residual;
    {
      const Instruction p = prototype();
      in.text = p.text;
      in.pos = p.pos;
      in.origin = p.origin;
    }
    const Buffer& buffer = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)];
    in.space = buffer.space != Buffer::Space::Shared ? StateSpace::Global
               : buffer.ownerCta == where_.cta   ? StateSpace::SharedCta
                                                 : StateSpace::SharedCluster;
    const Operand location{Operand::Kind::Location, ctx_.pass == Pass::Emit ? locationFor(a, size) : std::string(), 0, {}};
    if (load) {
      // The location holds the value canonical at `w`; a wider register receives it extended by the type.
      const bool widen = dst >= 0 && !d.type.isSigned() && regBits(dst) > w;
      const std::string target = dst < 0 ? temp() : widen ? temp() : regName(dst);
      in.operands = {ResidualBuilder::reg(target), location};
      emit(std::move(in));
      if (dst >= 0) {
        if (widen) assign(b, dst, b.zeroExtend(ResidualBuilder::reg(target), w), w + 1, AbsValue::Kind::Symbolic, -1);
        else setResidual(dst, AbsValue::Kind::Symbolic, -1);
      }
      continue;
    }
    if (!store) {
      in.valueBits = w;
      in.valueUnsigned = d.type.kind == PtxType::Kind::Unsigned;
      in.opaqueValue = d.type.isFloat() && d.atomOp != AtomOp::Exch && d.atomOp != AtomOp::Cas;
    }
    if (store) {
      in.operands = {location, value(element).second};
    } else if (atom) {
      const std::string target = dst >= 0 ? regName(dst) : temp();
      in.operands = {ResidualBuilder::reg(target), location, value(d.ops[2]).second};
      if (d.ops.size() > 3) in.operands.push_back(value(d.ops[3]).second);
    } else {
      in.operands = {location, value(d.ops[1]).second};
    }
    emit(std::move(in));
    if (dst >= 0) setResidual(dst, AbsValue::Kind::Symbolic, -1);
    if (atom && d.ops.size() == 3) {
      std::string name;
      const AbsValue increment = read(d.ops[2], name);
      if (increment.isConcrete()) newTicket(d, dst, a, signExtend(static_cast<std::uint64_t>(increment.bits), w));
    }
  }
}

// ---- synchronisation and asynchronous copies ----------------------------------------------------------------

void ThreadEvaluator::synchronisation(const DecodedInstruction& d) {
  Instruction in = *d.residual;
  {
    const Instruction p = prototype();
    in.text = p.text;
    in.pos = p.pos;
    in.origin = p.origin;
  }
  if (in.op == Opcode::BulkCopy && (in.bulk == BulkKind::TensorLoad || in.bulk == BulkKind::TensorStore))
    return tensorCopy(d, std::move(in));
  if (in.op == Opcode::FenceProxy && in.proxy == model::Proxy::Tensormap && !d.ops.empty()) {
    std::string why;
    if (tensorMapParam(d.ops[0], why)) return;  // a parameter map: nobody writes it, there is nothing to acquire
  }
  auto concreteCount = [&](std::size_t i) -> std::int64_t {
    std::string name;
    const AbsValue v = read(d.ops.at(i), name);
    if (!v.isConcrete()) fail(d, "the size operand must not depend on memory values");
    return v.bits;
  };
  // The size of the object behind each address operand.
  auto objectSize = [&](std::size_t i) -> std::int64_t {
    switch (in.op) {
      case Opcode::CpAsync: return concreteCount(2);
      case Opcode::BulkCopy: return i + 1 < d.roles.size() && d.roles[i + 1] == Role::Count ? concreteCount(i + 1)
                                     : i >= 2 ? 8 : concreteCount(2);
      case Opcode::StAsync:
      case Opcode::RedAsync: return i == 0 ? d.type.bytes() : 8;
      case Opcode::FenceProxy: return 128;
      default: return 8;
    }
  };
  auto spaceOf = [&](std::size_t i) -> AddrSpace {
    switch (in.op) {
      case Opcode::CpAsync: return i == 0 ? AddrSpace::Shared : AddrSpace::Global;
      case Opcode::BulkCopy:
        if (i >= 2) return AddrSpace::SharedCluster;  // the mbarrier
        if (in.bulk == BulkKind::SharedToGlobal) return i == 0 ? AddrSpace::Global : AddrSpace::Shared;
        if (in.bulk == BulkKind::SharedToCluster) return i == 0 ? AddrSpace::SharedCluster : AddrSpace::Shared;
        return i == 0 ? addrSpace(in.space) : AddrSpace::Global;
      case Opcode::StAsync:
      case Opcode::RedAsync: return d.roles.size() == 3 ? AddrSpace::SharedCluster : AddrSpace::Global;
      default: return addrSpace(in.space);
    }
  };
  const bool writesObject = in.op != Opcode::MbarWait && in.op != Opcode::FenceProxy;
  std::vector<int> results;
  std::vector<std::optional<Access>> accessed(d.roles.size());
  bool emitIt = true;
  bool peer = false;
  for (std::size_t i = 0; i < d.roles.size() && i < d.ops.size(); ++i) {
    const DOperand& o = d.ops[i];
    switch (d.roles[i]) {
      case Role::Dst:
      case Role::DstOrSink:
        if (o.kind == DOperand::Kind::Sink) {
          in.sink = true;
          in.operands.push_back({Operand::Kind::Immediate, "_", 0, o.pos});
        } else {
          if (o.kind != DOperand::Kind::Reg) fail(d, "expected a destination register");
          in.operands.push_back(ResidualBuilder::reg(regName(o.reg)));
          results.push_back(o.reg);
        }
        break;
      case Role::Addr: {
        const std::int64_t size = objectSize(i);
        const Access a = resolve(o, 0, size, spaceOf(i));
        if (a.kind != Access::Kind::Buffer) {
          if (a.kind == Access::Kind::Symbolic) symbolicAccess(a, true);  // as recordWrite: any operand may be written
          else outOfBounds(a.kind == Access::Kind::Miss ? a.reason : "not an address in shared or global memory");
          recordWrite(a, size);
          emitIt = false;
          in.operands.push_back({});
          break;
        }
        // Copies write their first address; mbarrier operations write the object.
        if (writesObject && (i == 0 || isMbarrierOp(in.op) || (in.op == Opcode::BulkCopy && i >= 2) ||
                             ((in.op == Opcode::StAsync || in.op == Opcode::RedAsync) && i == 2)))
          recordWrite(a, size);
        accessed[i] = a;
        const Buffer& buffer = ctx_.memory.buffers()[static_cast<std::size_t>(a.buffer)];
        peer = peer || (buffer.space == Buffer::Space::Shared && buffer.ownerCta != where_.cta);
        const bool mbarrier = isMbarrierOp(in.op) || (in.op == Opcode::BulkCopy && i >= 2) ||
                              ((in.op == Opcode::StAsync || in.op == Opcode::RedAsync) && i == 2);
        std::string name;
        if (ctx_.pass == Pass::Emit)
          name = ctx_.locations[static_cast<std::size_t>(ctx_.location(a.buffer, a.offset, static_cast<int>(size),
                                                                        mbarrier ? LocationKind::MBarrier : LocationKind::Memory))].name;
        in.operands.push_back({Operand::Kind::Location, name, 0, o.pos});
        break;
      }
      case Role::AddrPair: fail(d, "tensor-map operands are not supported in kernels yet");
      case Role::Value: {
        std::string name;
        const AbsValue v = read(o, name);
        in.operands.push_back(irOperand(v, name, 64));
        break;
      }
      case Role::Count: in.operands.push_back(ResidualBuilder::imm(concreteCount(i))); break;
    }
  }
  if (in.op == Opcode::CpAsync && d.ops.size() == 4 && concreteCount(3) != concreteCount(2))
    fail(d, "cp.async with a source size smaller than the copy (zero fill) is not supported yet");
  if (peer && in.space != StateSpace::Global) in.space = StateSpace::SharedCluster;
  if (emitIt && in.op == Opcode::CpAsync) {
    splitCopy(std::move(in), *accessed[0], *accessed[1]);
  } else if (emitIt) {
    emit(std::move(in));
  }
  for (int r : results) setResidual(r, AbsValue::Kind::Symbolic, -1);
}

// A cp.async of several elements of its destination's type is one copy per element (as vector accesses are),
// so that its bytes are the same locations the kernel's loads and stores name.
void ThreadEvaluator::splitCopy(Instruction copy, const Access& dst, const Access& src) {
  copy.operands.resize(3);  // the source-size operand, checked equal to the size, is not part of the IR form
  const std::int64_t size = copy.operands[2].value;
  const int chunk = elemBytes(ctx_.memory.buffers()[static_cast<std::size_t>(dst.buffer)].elem);
  if (ctx_.pass != Pass::Emit || chunk >= size || size % chunk || dst.offset % chunk || src.offset % chunk)
    return emit(std::move(copy));
  for (std::int64_t at = 0; at < size; at += chunk) {
    Instruction part = copy;
    part.operands[0].name = ctx_.locations[static_cast<std::size_t>(ctx_.location(dst.buffer, dst.offset + at, chunk, LocationKind::Memory))].name;
    part.operands[1].name = ctx_.locations[static_cast<std::size_t>(ctx_.location(src.buffer, src.offset + at, chunk, LocationKind::Memory))].name;
    part.operands[2].value = chunk;
    emit(std::move(part));
  }
}

// ---- mapa, getctarank, isspacep, cvta -----------------------------------------------------------------------

void ThreadEvaluator::addressing(const DecodedInstruction& d) {
  if (d.ops.size() < 2 || d.ops[0].kind != DOperand::Kind::Reg) fail(d, "expected a destination register and an address");
  const int dst = d.ops[0].reg;
  std::string name;
  const AbsValue a = read(d.ops[1], name);
  std::optional<AbsValue> rank;
  std::string rankName;
  if (d.op == PeOp::Mapa) {
    if (d.ops.size() != 3) fail(d, "mapa takes a destination, an address and a CTA rank");
    rank = read(d.ops[2], rankName);
  }
  if (!a.isConcrete() || (rank && !rank->isConcrete())) {
    std::vector<Operand> deps;
    if (a.inRegister()) deps.push_back(ResidualBuilder::reg(name));
    if (rank && rank->inRegister()) deps.push_back(ResidualBuilder::reg(rankName));
    const bool identity = d.op == PeOp::Cvta && (d.space == AddrSpace::Global || d.space == AddrSpace::Const);
    if (identity && a.kind == AbsValue::Kind::Symbolic) {  // global and generic addresses coincide
      ResidualBuilder b = builder();
      return assign(b, dst, ResidualBuilder::reg(name), 64, AbsValue::Kind::Symbolic, a.provenance);
    }
    return setOpaque(dst, deps, d.op == PeOp::Cvta || d.op == PeOp::Mapa ? a.provenance : -1);
  }
  const auto address = static_cast<std::uint64_t>(a.bits) & widthMask(d.type.bits);
  std::optional<std::uint64_t> r;
  switch (d.op) {
    case PeOp::Mapa:
      r = ctx_.memory.mapa(address, static_cast<std::uint64_t>(rank->bits), d.space == AddrSpace::Generic, addressing_);
      if (!r) fail(d, "mapa of an address that is not shared memory of the cluster, or of a rank outside it");
      break;
    case PeOp::Getctarank:
      r = ctx_.memory.ctaRank(address, d.space == AddrSpace::Generic, addressing_);
      if (!r) fail(d, "getctarank of an address that is not shared memory of the cluster");
      return setConcrete(dst, *r, d.type);
    case PeOp::Isspacep: return setConcrete(dst, ctx_.memory.inSpace(address, d.space) ? 1 : 0, PtxType{PtxType::Kind::Pred, 1});
    default:  // Cvta
      r = d.mode == 1 ? ctx_.memory.fromGeneric(address, d.space, addressing_) : ctx_.memory.toGeneric(address, d.space, addressing_);
      if (!r) return setOpaque(dst, {});  // not an address of that space: PTX leaves the result undefined
      break;
  }
  setConcrete(dst, *r, d.type);
}

}  // namespace ptxmm::frontend::ptx
