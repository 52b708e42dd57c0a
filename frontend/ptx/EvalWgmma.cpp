// wgmma in the partial evaluator (ThreadEvaluator.hpp, MatrixDescriptor.hpp). wgmma.fence, commit_group and
// wait_group become the litmus side's residual instructions as they are. Each thread of the warpgroup issues
// wgmma.mma_async, and each is modelled as reading every byte of the shared-memory operands (from the matrix
// descriptors its registers hold) in the async proxy: the hardware reads them once for the warpgroup, but
// which thread's issue "performs" a read is not observable, and reading in every thread is the reading that
// orders the reads after each thread's own prior accesses and fences (wgmma.fence, fence.proxy.async) and
// retires them only at that thread's wait_group [ptx-model §4.13] — a write that is unordered with the reads of
// any thread of the warpgroup is a race. The accumulators become opaque values (ptxmm computes no products). A
// descriptor that is not concrete leaves the operand's reads unknown: a symbolic access (UNKNOWN where it
// matters), never left out silently.
#include <algorithm>

#include "frontend/ptx/LaunchArgs.hpp"
#include "frontend/ptx/MatrixDescriptor.hpp"
#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {

void ThreadEvaluator::wgmma(const DecodedInstruction& d) {
  Instruction in = *d.residual;
  {
    const Instruction p = prototype();
    in.text = p.text;
    in.pos = p.pos;
    in.origin = p.origin;
  }
  if (in.op == Opcode::WgmmaWait) in.operands.push_back(ResidualBuilder::imm(static_cast<std::int64_t>(d.ops[0].imm.bits)));
  if (in.op != Opcode::WgmmaMma) return emit(std::move(in));
  in.space = StateSpace::SharedCta;
  const std::string dst = temp();
  in.operands.push_back(ResidualBuilder::reg(dst));
  auto reads = [&](const DOperand& descriptor, int rows, const std::string& which) {
    std::string name;
    const AbsValue v = read(descriptor, name);
    if (!v.isConcrete()) {
      Access a;
      a.kind = Access::Kind::Symbolic;
      a.provenance = v.provenance;
      a.reason = "the matrix descriptor of wgmma's operand " + which + " (" + name + ") depends on " +
                 (v.kind == AbsValue::Kind::Symbolic ? "a value read from memory some thread writes" : "a value ptxmm does not compute");
      return symbolicAccess(a, false);
    }
    for (const auto& [from, to] : operandBytes(decodeMatrixDescriptor(static_cast<std::uint64_t>(v.bits)), rows)) {
      DOperand at;
      at.kind = DOperand::Kind::Address;
      at.offset = static_cast<std::int64_t>(from);
      const auto size = static_cast<std::int64_t>(to - from);
      const Access a = resolve(at, 0, size, AddrSpace::Shared);
      if (a.kind != Access::Kind::Buffer) {
        outOfBounds("wgmma's operand " + which + " reads " + std::to_string(size) + " bytes at shared address " + std::to_string(from) +
                    ": " + (a.reason.empty() ? std::string("not shared memory of the CTA") : a.reason));
        continue;
      }
      if (ctx_.pass != Pass::Emit) continue;
      // Pieces of the buffer's element size, the locations the kernel's other accesses of it name (a buffer only
      // bulk copies touch is cut into 16-byte pieces, which the copies are then cut to: CopyElements.hpp).
      const int buffer = a.buffer;
      int chunk = elemBytes(ctx_.memory.buffers()[static_cast<std::size_t>(buffer)].elem);
      if (chunk == 1 && ctx_.accessTypes[static_cast<std::size_t>(buffer)].empty()) chunk = 16;
      for (std::int64_t o = a.offset; o < a.offset + size; o += chunk) {
        const int piece = static_cast<int>(std::min<std::int64_t>(chunk, a.offset + size - o));
        in.operands.push_back({Operand::Kind::Location,
                               ctx_.locations[static_cast<std::size_t>(ctx_.location(buffer, o, piece, LocationKind::Memory))].name, 0, {}});
      }
    }
  };
  if (d.ops[1].kind == DOperand::Kind::Reg) reads(d.ops[1], 64, "A");
  reads(d.ops[2], d.mode, "B");
  emit(std::move(in));
  for (const auto& e : d.ops[0].elements)
    if (e.kind == DOperand::Kind::Reg) setOpaque(e.reg, {ResidualBuilder::reg(dst)});
}

}  // namespace ptxmm::frontend::ptx
