// Tensor copies of the partial evaluator: cp.async.bulk.tensor.Nd.tile loads (global -> shared, completing on an
// mbarrier) and stores (shared -> global, in a bulk group) through a CUtensorMap kernel parameter, and the
// tensormap acquire fence on such a parameter. The map comes from the launch (--arg NAME=tensormap(...),
// TensorMap); with concrete coordinates a copy becomes the bulk copy of its elements that cp.async.bulk
// already is (pairs of [dst], [src] pieces, the shared side contiguous as the box lies there), so the lowering,
// CopyElements and the checker treat it as they treat any bulk copy. A load's out-of-bounds elements are copied
// from the launch's zero-fill buffer (which nothing writes) and still count in its complete_tx; a store writes
// only the in-bounds elements. The map itself is a kernel parameter nothing writes: its tensormap-proxy read
// [§4.7] and the acquire fence on it [§4.9] order nothing, so neither is emitted.
#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {

std::optional<int> ThreadEvaluator::tensorMapParam(const DOperand& address, std::string& why) {
  std::uint64_t at = 0;
  if (address.reg >= 0) {
    std::string name;
    const AbsValue v = read(DOperand::ofRegister(address.reg), name);
    if (!v.isConcrete()) {
      why = "the tensor map's address (" + name + ") depends on a value ptxmm does not compute";
      return std::nullopt;
    }
    at = static_cast<std::uint64_t>(v.bits) + static_cast<std::uint64_t>(address.offset);
  } else if (address.symbol.kind == SymbolRef::Kind::KernelParam) {
    at = kParamBase + static_cast<std::uint64_t>(address.symbol.index) * kParamStride + static_cast<std::uint64_t>(address.offset);
  }
  const auto param = LaunchMemory::paramAt(at);
  if (!param || param->second != 0 || !ctx_.tensorMaps.at(static_cast<std::size_t>(param->first))) {
    why = "the tensor map operand is not the address of a CUtensorMap kernel parameter";
    return std::nullopt;
  }
  return param->first;
}

void ThreadEvaluator::tensorCopy(const DecodedInstruction& d, Instruction in) {
  const bool load = in.bulk == BulkKind::TensorLoad;
  const DOperand& pair = d.ops.at(load ? 1 : 0);
  const DOperand& sharedOp = d.ops.at(load ? 0 : 1);
  std::string why;
  const auto param = tensorMapParam(pair, why);
  if (!param) fail(d, why);
  const TensorMap& map = *ctx_.tensorMaps[static_cast<std::size_t>(*param)];
  // `[map, {c0, c1}]`: the braces are one vector operand (a lone coordinate may stand without a vector).
  const std::vector<DOperand>& coordinates =
      pair.elements.size() == 1 && pair.elements[0].kind == DOperand::Kind::Vector ? pair.elements[0].elements : pair.elements;
  if (static_cast<int>(coordinates.size()) != map.rank())
    fail(d, "the copy gives " + std::to_string(coordinates.size()) + " coordinates but the tensor map has " +
                std::to_string(map.rank()) + " dimensions");
  // The shared-memory side: the whole box, contiguous.
  const std::int64_t boxBytes = map.boxBytes();
  const AddrSpace sharedSpace = load && in.space == StateSpace::SharedCluster ? AddrSpace::SharedCluster : AddrSpace::Shared;
  const Access shared = resolve(sharedOp, 0, boxBytes, sharedSpace);
  if (shared.kind == Access::Kind::Symbolic) symbolicAccess(shared, load);
  if (shared.kind != Access::Kind::Buffer && shared.kind != Access::Kind::Symbolic)
    outOfBounds(shared.kind == Access::Kind::Miss ? shared.reason : "not an address in shared memory");
  if (load) recordWrite(shared, boxBytes);
  std::optional<Access> mbar;
  if (load) {
    mbar = resolve(d.ops.at(2), 0, 8, AddrSpace::SharedCluster);
    if (mbar->kind == Access::Kind::Symbolic) symbolicAccess(*mbar, true);
    else if (mbar->kind != Access::Kind::Buffer) outOfBounds(mbar->kind == Access::Kind::Miss ? mbar->reason : "not an mbarrier in shared memory");
    recordWrite(*mbar, 8);
  }
  // The coordinates: with one the evaluator does not compute, the global side may be anywhere in the map's
  // buffer (symbolic, as an address would be).
  std::vector<std::int64_t> coords;
  for (const DOperand& c : coordinates) {
    std::string name;
    const AbsValue v = read(c, name);
    if (!v.isConcrete()) {
      Access global;
      global.kind = Access::Kind::Symbolic;
      global.provenance = map.buffer();
      global.reason = "a tensor-copy coordinate (" + name + ") depends on " +
                      (v.kind == AbsValue::Kind::Opaque ? std::string("a value ptxmm does not compute")
                                                        : std::string("a value read from memory some thread writes"));
      symbolicAccess(global, !load);
      if (!load) recordWrite(global, 1);
      return;
    }
    coords.push_back(static_cast<std::int64_t>(signExtend(static_cast<std::uint64_t>(v.bits), 32)));
  }
  if (shared.kind != Access::Kind::Buffer || (mbar && mbar->kind != Access::Kind::Buffer)) return;
  // PTX requires the box's shared-memory address 128-byte aligned (a swizzled box: aligned to its pattern).
  const int variable = (shared.buffer - ctx_.sharedFirstBuffer) % std::max(1, ctx_.sharedVariables);
  const auto sharedAddress = static_cast<std::int64_t>(ctx_.memory.sharedAddress(variable)) + shared.offset;
  if (sharedAddress % map.sharedAlignment())
    fail(d, "the tensor copy's shared-memory address is not " + std::to_string(map.sharedAlignment()) + "-byte aligned");
  const Buffer& sharedBuffer = ctx_.memory.buffers()[static_cast<std::size_t>(shared.buffer)];
  if (sharedBuffer.ownerCta != where_.cta) in.space = StateSpace::SharedCluster;
  auto piece = [&](int buffer, std::int64_t offset, std::int64_t bytes, const SourcePos& pos) {
    std::string name;
    if (ctx_.pass == Pass::Emit)
      name = ctx_.locations[static_cast<std::size_t>(ctx_.location(buffer, offset, static_cast<int>(bytes), LocationKind::Memory))].name;
    return Operand{Operand::Kind::Location, name, 0, pos};
  };
  std::vector<Operand> operands;
  std::int64_t moved = 0;
  for (const TensorMap::Run& run : map.runs(coords)) {
    if (!load && !run.inBounds) continue;  // a store writes only the tensor's own elements
    const Operand smem = piece(shared.buffer, shared.offset + run.shared, run.bytes, sharedOp.pos);
    const Operand global = run.inBounds ? piece(map.buffer(), run.global, run.bytes, pair.pos)
                                        : piece(ctx_.zeroFillBuffer, 0, run.bytes, pair.pos);
    if (run.inBounds) {
      auto& touched = ctx_.touchedBytes[static_cast<std::size_t>(map.buffer())];
      touched = std::max(touched, run.global + run.bytes);
      if (!load && ctx_.pass == Pass::Discover) ctx_.writes.addRange(map.buffer(), run.global, run.bytes);
    }
    operands.push_back(load ? smem : global);
    operands.push_back(load ? global : smem);
    moved += run.bytes;
  }
  if (operands.empty()) return;  // a store of a box wholly outside the tensor writes nothing
  in.bulk = load ? BulkKind::GlobalToShared : BulkKind::SharedToGlobal;
  operands.push_back(ResidualBuilder::imm(moved));  // a load moves (and completes) the whole box
  if (load) {
    std::string name;
    if (ctx_.pass == Pass::Emit)
      name = ctx_.locations[static_cast<std::size_t>(ctx_.location(mbar->buffer, mbar->offset, 8, LocationKind::MBarrier))].name;
    operands.push_back({Operand::Kind::Location, name, 0, d.ops[2].pos});
  }
  in.operands = std::move(operands);
  emit(std::move(in));
}

}  // namespace ptxmm::frontend::ptx
