// The partial evaluator's blocks, memo table, widening and control flow (ThreadEvaluator.hpp). The instruction
// families live in EvalArithmetic.cpp, EvalMemory.cpp and EvalControl.cpp.
#include "frontend/ptx/ThreadEvaluator.hpp"

#include <algorithm>
#include <cstring>

#include "frontend/ptx/ResidualLayout.hpp"

namespace ptxmm::frontend::ptx {

using model::UserError;

ThreadEvaluator::ThreadEvaluator(LaunchContext& context, int index, const KernelThread& where, const AddressingThread& addressing)
    : ctx_(context), index_(index), where_(where), addressing_(addressing) {
  Frame f;
  f.function = 0;
  f.regs.resize(ctx_.functions[0].registerNames.size());
  state_.frames.push_back(std::move(f));
  blockFor(state_, false);
}

// ---- blocks -----------------------------------------------------------------------------------------------

std::vector<int> ThreadEvaluator::pathOf(const State& s) {
  std::vector<int> path;
  for (std::size_t i = 1; i < s.frames.size(); ++i) path.push_back(s.frames[i].returnPc - 1);
  path.push_back(s.pc);
  return path;
}

std::string ThreadEvaluator::memoKey(const State& s) const {
  std::string key;
  auto put = [&](std::int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  auto value = [&](const AbsValue& v) {
    put(static_cast<std::int64_t>(v.kind));
    put(v.kind == AbsValue::Kind::Concrete ? v.bits : v.provenance);
    if (const auto& t = v.ticket) {  // states holding different runtime values must not share a block
      for (std::int64_t x : {std::int64_t{t->ticket}, t->scale, t->addend, std::int64_t{t->narrowed}, t->narrowScale, t->narrowLow, t->narrowHigh})
        put(x);
    }
  };
  put(s.pc);
  put(s.guardTaken);
  for (std::size_t i = 0; i < s.frames.size(); ++i) {
    const Frame& f = s.frames[i];
    put(f.function);
    put(f.returnPc);
    put(f.localBase);
    if (i + 1 < s.frames.size()) {
      for (const auto& v : f.regs) value(v);
    } else {
      const auto& code = ctx_.functions[static_cast<std::size_t>(f.function)];
      if (static_cast<std::size_t>(s.pc) < code.liveBefore.size())
        for (int r : code.liveBefore[static_cast<std::size_t>(s.pc)]) {
          put(r);
          value(f.regs[static_cast<std::size_t>(r)]);
        }
    }
  }
  for (const auto& [offset, slot] : s.priv) {
    put(offset);
    put(slot.size);
    value(slot.value);
  }
  return key;
}

// Widening: the registers that differ between a block already made for this instruction (`seen`) and the state
// arriving again through a back edge become residual values, their current concrete values moved into the
// residual registers first.
ThreadEvaluator::State ThreadEvaluator::generalize(const State& seen, State now) {
  if (seen.frames.size() != now.frames.size()) return now;
  Frame& f = now.frames.back();
  const Frame& g = seen.frames.back();
  if (f.function != g.function) return now;
  const auto& code = ctx_.functions[static_cast<std::size_t>(f.function)];
  ResidualBuilder b = builder();
  for (int r : code.liveBefore[static_cast<std::size_t>(now.pc)]) {
    AbsValue& v = f.regs[static_cast<std::size_t>(r)];
    const AbsValue& w = g.regs[static_cast<std::size_t>(r)];
    if (v.inRegister() && v.ticket != w.ticket) v.ticket.reset();  // a loop changes it: no longer one known value
    if (v == w || v.inRegister()) continue;
    const bool exact = v.kind == AbsValue::Kind::Concrete && w.kind != AbsValue::Kind::Opaque && w.kind != AbsValue::Kind::Undefined;
    if (v.kind == AbsValue::Kind::Concrete) b.local(LocalOp::Mov, regName(r), {ResidualBuilder::imm(v.bits)});
    else b.local(LocalOp::Opaque, regName(r), {});
    const int provenance = v.kind == AbsValue::Kind::Concrete ? ctx_.memory.bufferOf(static_cast<std::uint64_t>(v.bits), addressing_) : -1;
    v = exact ? AbsValue::symbolic(provenance) : AbsValue::opaque(provenance);
  }
  return now;
}

int ThreadEvaluator::blockFor(State state, bool backward, bool counted) {
  std::string key = memoKey(state);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  std::vector<int> path = pathOf(state);
  auto& here = blocksAt_[path];
  if (backward && !here.empty()) {
    state = generalize(blocks_[static_cast<std::size_t>(here.back())].entry, std::move(state));
    key = memoKey(state);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  }
  if (counted && ++divergentBlocks_[path] > ctx_.limits.blocksPerInstruction) {
    incomplete("more than " + std::to_string(ctx_.limits.blocksPerInstruction) +
               " different states reach this instruction (a loop whose exit depends on memory, unrolled too far)");
    return -1;
  }
  Block block;
  block.path = std::move(path);
  block.entry = std::move(state);
  const int id = static_cast<int>(blocks_.size());
  blocks_.push_back(std::move(block));
  here.push_back(id);
  memo_.emplace(std::move(key), id);
  queue_.emplace(blocks_.back().path, id);
  return id;
}

void ThreadEvaluator::startBlock(int block) {
  equality_.reset();
  current_ = block;
  state_ = blocks_[static_cast<std::size_t>(block)].entry;
  active_ = true;
  atBlockStart_ = true;
}

void ThreadEvaluator::endBlock(int next, int taken, std::optional<Instruction> branch) {
  Block& b = blocks_[static_cast<std::size_t>(current_)];
  b.next = next;
  b.taken = taken;
  b.branch = std::move(branch);
  active_ = false;
}

// Control reaching a label inside a block: the label may be where paths meet (again), so continue through the
// memo table (a path arriving in a state already seen there shares its code). Also before the first split: a
// loop entered by a jump from the entry block (libcu++'s semaphore acquire) would otherwise have its first
// visit inlined there, sharing its successors with later visits: a loop with two entries, which the unroller
// cannot read.
bool ThreadEvaluator::joinAtLabel() {
  if (atBlockStart_) {
    atBlockStart_ = false;
    return false;
  }
  if (!code().isLabel[static_cast<std::size_t>(state_.pc)]) return false;
  endBlock(blockFor(state_, false, false));
  return true;
}

ThreadEvaluator::Status ThreadEvaluator::run() {
  while (true) {
    if (!active_) {
      if (queue_.empty()) return parked_ ? Status::AtCollective : Status::Finished;
      const int next = queue_.begin()->second;
      queue_.erase(queue_.begin());
      startBlock(next);
    }
    if (!step()) {
      if (parked_) fail(instruction(), "warp-collective instructions on two paths that depend on memory values are not supported");
      parked_ = state_;
      parkedBlock_ = current_;
      active_ = false;
    }
  }
}

void ThreadEvaluator::resume(const std::vector<AbsValue>& results, int ownOperand) {
  state_ = std::move(*parked_);
  parked_.reset();
  current_ = parkedBlock_;
  active_ = true;
  const DecodedInstruction& d = instruction();
  if (d.op == PeOp::MatrixLoad || d.op == PeOp::MatrixStore) {
    matrixAccess(d, results);
    ++state_.pc;
    return;
  }
  std::vector<int> dsts;
  if (!d.ops.empty() && d.ops[0].kind == DOperand::Kind::Reg) dsts.push_back(d.ops[0].reg);
  else dsts.push_back(-1);
  if (!d.ops.empty() && d.ops[0].second >= 0) dsts.push_back(d.ops[0].second);
  if (d.op == PeOp::BarRed) {  // the barrier itself, then the reduction's result
    Instruction bar = prototype();
    bar.op = Opcode::BarSync;
    bar.aligned = d.residual->aligned;
    std::string residual;
    bar.operands.push_back(irOperand(read(d.ops[1], residual), residual, 32));
    if (d.ops.size() == 4) bar.operands.push_back(irOperand(read(d.ops[2], residual), residual, 32));
    emit(std::move(bar));
  }
  for (std::size_t i = 0; i < dsts.size() && i < results.size(); ++i) {
    if (dsts[i] < 0) continue;
    if (i == 0 && ownOperand >= 0) {  // the lane's own value: the same register value, exactly
      std::string name;
      const AbsValue v = read(d.ops[static_cast<std::size_t>(ownOperand)], name);
      if (v.inRegister() && d.ops[static_cast<std::size_t>(ownOperand)].kind == DOperand::Kind::Reg) {
        const auto ticket = v.ticket;
        ResidualBuilder b = builder();
        assign(b, dsts[i], ResidualBuilder::reg(name), regBits(d.ops[static_cast<std::size_t>(ownOperand)].reg), v.kind, v.provenance);
        if (ticket) reg(dsts[i]).ticket = ticket_term::at(*ticket, regBits(dsts[i]));
        continue;
      }
    }
    if (results[i].isConcrete()) setConcrete(dsts[i], static_cast<std::uint64_t>(results[i].bits), i == 0 ? d.type : PtxType{PtxType::Kind::Pred, 1});
    else setOpaque(dsts[i], {});
    // A value copied from another lane (shfl.sync) is that lane's runtime value: its ticket term carries over,
    // while the residual register stays opaque (the residual code of one thread cannot name another's).
    if (results[i].ticket) reg(dsts[i]).ticket = ticket_term::at(*results[i].ticket, regBits(dsts[i]));
  }
  ++state_.pc;
}

// ---- stepping ---------------------------------------------------------------------------------------------

const DecodedFunction& ThreadEvaluator::code() const {
  return ctx_.functions[static_cast<std::size_t>(state_.frames.back().function)];
}

const DecodedInstruction& ThreadEvaluator::instruction() const {
  return code().code[static_cast<std::size_t>(state_.pc)];
}

void ThreadEvaluator::fail(const DecodedInstruction& d, const std::string& message) const {
  const bool current = !state_.frames.empty() && static_cast<std::size_t>(state_.pc) < code().code.size() && &instruction() == &d;
  if (!current) throw UserError(d.source->pos, message + " ('" + d.source->text + "')");
  failAt(state_.frames.back().function, state_.pc, d, message);
}

void ThreadEvaluator::failAtCollective(const std::string& message) const {
  failAt(collective_.function, collective_.pc, *collective_.instruction, message);
}

// On the kernel's own line (.loc, the outermost inlined_at) when nvcc gave one — for a .cu input the PTX is a
// temporary file whose positions would be read as lines of the .cu — with the PTX line beside the instruction.
void ThreadEvaluator::failAt(int function, int pc, const DecodedInstruction& d, const std::string& message) const {
  if (d.source->loc < 0) throw UserError(d.source->pos, message + " ('" + d.source->text + "')");
  const KernelOrigin& o = ctx_.origins[static_cast<std::size_t>(ctx_.origin(function, pc))];
  throw UserError(o.source, message + " (PTX line " + std::to_string(o.ptx.line) + ": '" + d.source->text + "')");
}

void ThreadEvaluator::incomplete(const std::string& reason) {
  const int origin = ctx_.pass == Pass::Emit && active_ && static_cast<std::size_t>(state_.pc) < code().code.size()
                         ? ctx_.origin(state_.frames.back().function, state_.pc)
                         : -1;
  if (ctx_.pass == Pass::Emit) ctx_.addIncomplete(index_, origin, reason);
  stopped_ = true;
}

// The verdicts describe launches that run to completion; an aborted one (cudaErrorLaunchFailure / Assert) has no
// final memory to check, so reaching the abort is a reason for UNKNOWN, not a finding.
void ThreadEvaluator::abortsLaunch(const std::string& what) {
  incomplete("the thread may execute " + what + ", which aborts the launch");
  endBlock(-1);
}

bool ThreadEvaluator::step() {
  if (stopped_) {  // a budget ran out: end every remaining path here
    endBlock(-1);
    return true;
  }
  if (static_cast<std::size_t>(state_.pc) >= code().code.size()) {  // fell off the end of the function
    if (state_.frames.size() > 1) returnFromCall();
    else finishThread();
    return true;
  }
  if (joinAtLabel()) return true;
  if (++steps_ > ctx_.limits.stepsPerThread) {
    incomplete("the thread runs more than " + std::to_string(ctx_.limits.stepsPerThread) +
               " PTX instructions (a loop that does not end?)");
    endBlock(-1);
    return true;
  }
  const DecodedInstruction& d = instruction();
  if (d.op == PeOp::Unsupported) fail(d, d.error.substr(d.error.find("error: ") + 7));  // on the .cu line when .loc gives one
  blocks_[static_cast<std::size_t>(current_)].jump.reset();  // the block goes on past its last jump
  if (d.guard >= 0 && !state_.guardTaken) {
    std::string name = regName(d.guard);
    AbsValue g = read(DOperand::ofRegister(d.guard), name);
    if (g.isConcrete()) {
      if ((g.bits != 0) == d.guardNegated) {  // the guard does not hold: the instruction does nothing
        ++state_.pc;
        return true;
      }
    } else if (d.op == PeOp::Bra) {
      branchOn(g, name, d.guardNegated, d.ops[0].target, state_.pc + 1, d.ops[0].target <= state_.pc);
      return true;
    } else {
      // Execute it in one block (its guard known to hold) or skip it in another.
      State exec = state_, skip = state_;
      exec.guardTaken = true;
      ++skip.pc;
      exec.divergent = skip.divergent = true;
      const int e = blockFor(std::move(exec), false), s = blockFor(std::move(skip), false);
      Instruction br = prototype();
      br.op = Opcode::Branch;
      br.predicated = true;
      br.negatePredicate = !d.guardNegated;
      br.operands = {ResidualBuilder::reg(name)};
      endBlock(e, s, std::move(br));
      return true;
    }
  }
  state_.guardTaken = false;
  switch (d.op) {
    case PeOp::Bra:  // a decided jump continues in the same block (a concrete loop unrolls) ...
      blocks_[static_cast<std::size_t>(current_)].jump = prototype();  // the origin of a back edge ending here
      if (d.ops[0].target <= state_.pc && repeatsState(d.ops[0].target)) return true;
      state_.pc = d.ops[0].target;
      return true;
    case PeOp::Ret:
    case PeOp::Exit:
      if (d.op == PeOp::Ret && state_.frames.size() > 1) returnFromCall();
      else finishThread();
      return true;
    case PeOp::Trap: abortsLaunch("trap"); return true;
    case PeOp::Call: call(d); return true;
    case PeOp::Shfl:
    case PeOp::Vote:
    case PeOp::Match:
    case PeOp::Redux:
    case PeOp::Activemask:
    case PeOp::Elect:
    case PeOp::MatrixLoad:
    case PeOp::MatrixStore:
    case PeOp::BarRed: {
      if (ctx_.pass == Pass::Discover && parked_) {
        if (d.op == PeOp::MatrixLoad || d.op == PeOp::MatrixStore) {
          matrixUnmet(d);
          break;
        }
        // Discovering, a second path (split on a load every thread is assumed to change) reaches a collective
        // while the first waits at one: its results are opaque here, which can only widen the bytes found
        // writable. The emitting pass, where such loads are concrete, meets the lanes properly.
        if (!d.ops.empty() && d.ops[0].kind == DOperand::Kind::Reg) {
          setOpaque(d.ops[0].reg, {});
          if (d.ops[0].second >= 0) setOpaque(d.ops[0].second, {});
        }
        break;
      }
      collective_ = {&d, state_.frames.back().function, state_.pc, {}};
      if (d.op == PeOp::MatrixLoad || d.op == PeOp::MatrixStore) {  // the row address this lane gives
        collective_.inputs = {matrixRowAddress(d)};
        return false;
      }
      for (const auto& o : d.ops) {
        std::string residual;
        const bool source = o.kind != DOperand::Kind::Sink && !(&o == &d.ops[0]);
        collective_.inputs.push_back(source ? read(o, residual) : AbsValue{});
      }
      return false;
    }
    case PeOp::Ld:
    case PeOp::St:
    case PeOp::Atom:
    case PeOp::Red: memoryAccess(d); break;
    case PeOp::Sync: synchronisation(d); break;
    case PeOp::Wgmma: wgmma(d); break;
    case PeOp::Mapa:
    case PeOp::Getctarank:
    case PeOp::Isspacep:
    case PeOp::Cvta: addressing(d); break;
    case PeOp::Nop: break;
    default: {
      const auto ticket = carriedTicket(d);
      arithmetic(d);
      keepTicket(d, ticket);
      break;
    }
  }
  ++state_.pc;
  if (residualCount_ > ctx_.limits.residualPerThread) {
    incomplete("the thread's residual code exceeds " + std::to_string(ctx_.limits.residualPerThread) + " instructions");
    endBlock(-1);
  }
  return true;
}

// ... unless it comes back to a state it was in before: then the loop never ends whatever memory holds, and it
// becomes a residual loop (the second time round closes it through the memo table).
bool ThreadEvaluator::repeatsState(int target) {
  constexpr std::size_t kMaxRemembered = 100'000;
  State next = state_;
  next.pc = target;
  std::string key = memoKey(next);
  if (seenAtBackEdges_.count(key)) {
    endBlock(blockFor(std::move(next), false, false));
    return true;
  }
  if (seenAtBackEdges_.size() < kMaxRemembered) seenAtBackEdges_.insert(std::move(key));
  return false;
}

void ThreadEvaluator::branchOn(const AbsValue& condition, const std::string& reg, bool negate, int takenPc, int nextPc,
                               bool backward) {
  (void)condition;
  State taken = state_, next = state_;
  taken.pc = takenPc;
  next.pc = nextPc;
  taken.divergent = next.divergent = true;
  const int pred = instruction().guard;
  refineByEquality(taken, pred, !negate);
  refineByEquality(next, pred, negate);
  const int t = blockFor(std::move(taken), backward);
  const int n = blockFor(std::move(next), false);
  Instruction br = prototype();
  br.op = Opcode::Branch;
  br.predicated = true;
  br.negatePredicate = negate;
  br.operands = {ResidualBuilder::reg(reg)};
  endBlock(n, t, std::move(br));
}

void ThreadEvaluator::refineByEquality(State& side, int pred, bool predHolds) const {
  if (!equality_ || equality_->pc != state_.pc - 1 || equality_->depth != state_.frames.size() || equality_->pred != pred)
    return;
  if (predHolds != equality_->whenEqual) return;  // on this side the register differs from the value: no constant
  side.frames.back().regs[static_cast<std::size_t>(equality_->reg)] = AbsValue::concrete(equality_->value);
}

void ThreadEvaluator::finishThread() { endBlock(-1); }

// ---- values -----------------------------------------------------------------------------------------------

std::string ThreadEvaluator::regName(int reg) const {
  const std::string& name = code().registerNames[static_cast<std::size_t>(reg)];
  return state_.frames.size() == 1 ? name : name + "@" + std::to_string(state_.frames.size() - 1);
}

int ThreadEvaluator::regBits(int reg) const { return code().registerBits[static_cast<std::size_t>(reg)]; }

std::string ThreadEvaluator::temp() { return "$t" + std::to_string(temps_++); }

Instruction ThreadEvaluator::prototype() const {
  Instruction in;
  if (ctx_.pass != Pass::Emit) return in;
  const DecodedInstruction& d = instruction();
  in.text = d.source->text;
  in.origin = ctx_.origin(state_.frames.back().function, state_.pc);
  in.pos = ctx_.origins[static_cast<std::size_t>(in.origin)].source;
  return in;
}

void ThreadEvaluator::emit(Instruction in) {
  ++residualCount_;
  if (ctx_.pass == Pass::Emit) blocks_[static_cast<std::size_t>(current_)].code.push_back(std::move(in));
}

bool ThreadEvaluator::retarget(const std::string& temp, const std::string& reg) {
  if (ctx_.pass != Pass::Emit || temp.rfind("$t", 0) != 0) return false;
  auto& code = blocks_[static_cast<std::size_t>(current_)].code;
  if (code.empty() || (code.back().op != Opcode::Local && code.back().op != Opcode::Setp) ||
      code.back().operands.at(0).name != temp)
    return false;
  code.back().operands[0].name = reg;
  return true;
}

ResidualBuilder ThreadEvaluator::builder() {
  return ResidualBuilder([this](Instruction in) { emit(std::move(in)); }, prototype(), [this] { return temp(); });
}

AbsValue ThreadEvaluator::read(const DOperand& o, std::string& residual) {
  switch (o.kind) {
    case DOperand::Kind::Reg: {
      AbsValue& v = reg(o.reg);
      residual = regName(o.reg);
      if (v.kind == AbsValue::Kind::Undefined) {  // an unwritten register holds an unpredictable value
        builder().local(LocalOp::Opaque, residual, {});
        v = AbsValue::opaque();
      }
      return v;
    }
    case DOperand::Kind::Imm: {
      // Integers as two's complement bits, floats as their bits (a decimal float as f64; f32 users narrow it).
      return AbsValue::concrete(static_cast<std::int64_t>(o.imm.bits));
    }
    case DOperand::Kind::Special: return readSpecial(o, residual);
    default: fail(instruction(), "unexpected operand");
  }
}

AbsValue ThreadEvaluator::readSpecial(const DOperand& o, std::string& residual) {
  const auto pick = [&](const Dim3& d) { return o.component == 0 ? d.x : o.component == 1 ? d.y : d.z; };
  const LaunchConfig& l = ctx_.launch;
  const Dim3 clusterDims = ctx_.clusterDims;
  const Dim3 clusterCtaid{where_.ctaid.x % clusterDims.x, where_.ctaid.y % clusterDims.y, where_.ctaid.z % clusterDims.z};
  const Dim3 clusterId{where_.ctaid.x / clusterDims.x, where_.ctaid.y / clusterDims.y, where_.ctaid.z / clusterDims.z};
  const Dim3 nclusters{l.grid.x / clusterDims.x, l.grid.y / clusterDims.y, l.grid.z / clusterDims.z};
  const std::int64_t lane = where_.lane;
  switch (o.special) {
    case Special::Tid: return AbsValue::concrete(pick(where_.tid));
    case Special::Ntid: return AbsValue::concrete(pick(l.block));
    case Special::Ctaid: return AbsValue::concrete(pick(where_.ctaid));
    case Special::Nctaid: return AbsValue::concrete(pick(l.grid));
    case Special::Laneid: return AbsValue::concrete(lane);
    case Special::WarpSize: return AbsValue::concrete(32);
    case Special::ClusterCtaid: return AbsValue::concrete(pick(clusterCtaid));
    case Special::ClusterNctaid: return AbsValue::concrete(pick(clusterDims));
    case Special::ClusterCtarank: return AbsValue::concrete(where_.ctaRank);
    case Special::ClusterNctarank: return AbsValue::concrete(clusterDims.count());
    case Special::Clusterid: return AbsValue::concrete(pick(clusterId));
    case Special::Nclusterid: return AbsValue::concrete(pick(nclusters));
    case Special::IsExplicitCluster: return AbsValue::concrete(ctx_.explicitCluster ? 1 : 0);
    case Special::DynamicSmemSize: return AbsValue::concrete(ctx_.dynamicShared);
    case Special::TotalSmemSize: return AbsValue::concrete(ctx_.totalShared);
    case Special::LanemaskEq: return AbsValue::concrete(std::int64_t{1} << lane);
    case Special::LanemaskLe: return AbsValue::concrete(static_cast<std::int32_t>((std::uint64_t{2} << lane) - 1));
    case Special::LanemaskLt: return AbsValue::concrete((std::int64_t{1} << lane) - 1);
    case Special::LanemaskGe: return AbsValue::concrete(static_cast<std::int32_t>(~((std::uint32_t{1} << lane) - 1)));
    case Special::LanemaskGt: return AbsValue::concrete(static_cast<std::int32_t>(~((std::uint64_t{2} << lane) - 1)));
    case Special::GridWorkspaceHigh: return AbsValue::concrete(static_cast<std::int32_t>(ctx_.gridWorkspace >> 32));
    case Special::GridWorkspaceLow: return AbsValue::concrete(static_cast<std::int32_t>(ctx_.gridWorkspace & 0xffffffff));
    case Special::Unknown:
    case Special::None: break;
  }
  residual = temp();  // a clock, a timer, a hardware id: a fresh unknown value at every read
  builder().local(LocalOp::Opaque, residual, {});
  return AbsValue::opaque();
}

Operand ThreadEvaluator::irOperand(const AbsValue& v, const std::string& residual, int width) {
  if (v.isConcrete()) return ResidualBuilder::imm(signExtend(static_cast<std::uint64_t>(v.bits), width));
  return ResidualBuilder::reg(residual);
}

void ThreadEvaluator::setConcrete(int r, std::uint64_t bits, const PtxType& type) {
  const int width = regBits(r);
  AbsValue& v = reg(r);
  if (width == 1) {
    v = AbsValue::concrete((bits & widthMask(type.bits)) != 0 ? 1 : 0);
    return;
  }
  const std::int64_t value = extend(bits, type.bits, type.isSigned());
  v = AbsValue::concrete(signExtend(static_cast<std::uint64_t>(value), width));
}

void ThreadEvaluator::setResidual(int r, AbsValue::Kind kind, int provenance) {
  reg(r) = AbsValue{kind, 0, provenance, std::nullopt};
}

void ThreadEvaluator::setOpaque(int r, const std::vector<Operand>& deps, int provenance) {
  builder().local(LocalOp::Opaque, regName(r), deps);
  reg(r) = AbsValue::opaque(provenance);
}

// ---- layout -----------------------------------------------------------------------------------------------

Thread ThreadEvaluator::takeThread() {
  Thread t;
  t.index = index_;
  t.name = "P" + std::to_string(index_);
  t.cta = where_.cta;
  t.cluster = where_.cluster;
  t.warp = where_.warp;
  std::vector<ResidualBlock> blocks;
  blocks.reserve(blocks_.size());
  for (auto& b : blocks_) blocks.push_back({std::move(b.code), std::move(b.branch), b.taken, b.next, std::move(b.jump)});
  t.code = layOutResidual(std::move(blocks), index_, ctx_.incomplete);
  return t;
}

}  // namespace ptxmm::frontend::ptx
