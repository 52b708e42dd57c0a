// Calls of the partial evaluator: a `.func` call is inlined by pushing a frame whose parameters are the caller's
// `.param` argument variables (thread-private memory, so values pass exactly); `ret` pops it. A call of
// vprintf (CUDA's printf) has no memory-model effect and is skipped: ptxmm does not model printed output. A call of
// __assertfail (a device assert() whose condition failed) aborts the launch, as trap does.
#include "frontend/ptx/ThreadEvaluator.hpp"

namespace ptxmm::frontend::ptx {
namespace {

constexpr std::size_t kMaxCallDepth = 64;

}  // namespace

void ThreadEvaluator::call(const DecodedInstruction& d) {
  std::size_t fi = 0;
  while (fi < d.ops.size() && !(d.ops[fi].kind == DOperand::Kind::Symbol && d.ops[fi].symbol.kind == SymbolRef::Kind::Function))
    ++fi;
  if (fi == d.ops.size()) fail(d, "indirect calls are not supported");
  const std::string& name = d.source->operands[fi].name;
  const std::vector<DOperand> none;
  const auto& results = fi > 0 && d.ops[0].kind == DOperand::Kind::List ? d.ops[0].elements : none;
  const auto& args = fi + 1 < d.ops.size() && d.ops[fi + 1].kind == DOperand::Kind::List ? d.ops[fi + 1].elements : none;
  const int callee = ctx_.function(name);
  if (callee < 0) {
    if (name == "vprintf") return void(++state_.pc);
    if (name == "__assertfail") return abortsLaunch("a failing device assert() (__assertfail)");
    fail(d, "calls to the external function '" + name + "' are not supported");
  }
  if (state_.frames.size() >= kMaxCallDepth) {
    incomplete("calls nest more than " + std::to_string(kMaxCallDepth) + " deep (recursion?)");
    return endBlock(-1);
  }
  const DecodedFunction& target = ctx_.functions[static_cast<std::size_t>(callee)];
  const Function& fn = *target.source;
  if (args.size() != fn.params.size() || (!results.empty() && results.size() != fn.returns.size()))
    fail(d, "'" + name + "' takes " + std::to_string(fn.params.size()) + " arguments and returns " +
                std::to_string(fn.returns.size()) + " values");
  Frame f;
  f.function = callee;
  f.returnPc = state_.pc + 1;
  f.localBase = frame().localBase + code().frameBytes;
  f.regs.resize(target.registerNames.size());
  auto bind = [&](const DOperand& o) {
    if (o.kind != DOperand::Kind::Symbol || o.symbol.kind != SymbolRef::Kind::Local)
      fail(d, "call arguments must be .param variables of the caller");
    return frame().localBase + code().localOffsets[static_cast<std::size_t>(o.symbol.index)];
  };
  for (const auto& a : args) f.paramAddress.push_back(bind(a));
  for (const auto& r : results) f.paramAddress.push_back(bind(r));
  for (std::size_t i = f.paramAddress.size(); i < fn.params.size() + fn.returns.size(); ++i)
    f.paramAddress.push_back(f.localBase + target.frameBytes + static_cast<std::int64_t>(8 * i));  // discarded results
  if (static_cast<std::uint64_t>(f.localBase + target.frameBytes) + 8 * (fn.params.size() + fn.returns.size()) >= kWindowBytes - kLocalStart)
    fail(d, "the call stack exceeds the local memory ptxmm models");
  state_.frames.push_back(std::move(f));
  state_.pc = 0;
}

void ThreadEvaluator::returnFromCall() {
  const int pc = state_.frames.back().returnPc;
  state_.frames.pop_back();
  state_.pc = pc;
}

}  // namespace ptxmm::frontend::ptx
