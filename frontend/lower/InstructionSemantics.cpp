// The meaning of each instruction as events (InstructionSemantics.hpp). Section numbers refer to
// spec/ptx-model.md; §1.6 and §4 give the event tables followed here.
#include "frontend/lower/InstructionSemantics.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "model/MbarrierLayout.hpp"

namespace ptxmm::frontend {
namespace {

using model::Event;
using model::Tag;
using model::TagSet;
using model::tagBit;
using model::UserError;
using model::ValueOp;
using model::ValuePtr;
namespace value = model::value;

ValuePtr k(std::int64_t c) { return value::constant(c); }
ValuePtr op(ValueOp o, ValuePtr a, ValuePtr b) { return value::apply(o, {std::move(a), std::move(b)}); }

// ---- mbarrier state as one integer [§4.2] (layout: model/MbarrierLayout.hpp) ---------------------------------------

namespace mbar {
using namespace model::mbar;
ValuePtr field(const ValuePtr& v, int shift, std::int64_t mask) {
  return op(ValueOp::And, op(ValueOp::Shr, v, k(shift)), k(mask));
}
ValuePtr phase(const ValuePtr& v) { return field(v, kPhaseShift, 3); }
ValuePtr pending(const ValuePtr& v) { return field(v, kPendingShift, kCountMask); }
ValuePtr expected(const ValuePtr& v) { return field(v, kExpectedShift, kCountMask); }
ValuePtr tx(const ValuePtr& v) { return op(ValueOp::Sub, field(v, 0, kTxMask), k(kTxOffset)); }
ValuePtr pack(const ValuePtr& ph, const ValuePtr& pend, const ValuePtr& exp, const ValuePtr& t) {
  auto put = [](const ValuePtr& x, std::int64_t mask, int shift) { return op(ValueOp::Shl, op(ValueOp::And, x, k(mask)), k(shift)); };
  return op(ValueOp::Or,
            op(ValueOp::Or, put(ph, 3, kPhaseShift), put(pend, kCountMask, kPendingShift)),
            op(ValueOp::Or, put(exp, kCountMask, kExpectedShift), put(op(ValueOp::Add, t, k(kTxOffset)), kTxMask, 0)));
}
// After an arrive-on or a complete-tx: when nothing is pending, the phase completes and the object re-arms.
ValuePtr settle(const ValuePtr& ph, const ValuePtr& pend, const ValuePtr& exp, const ValuePtr& t) {
  const ValuePtr done = op(ValueOp::LAnd, op(ValueOp::Eq, pend, k(0)), op(ValueOp::Eq, t, k(0)));
  return value::apply(ValueOp::Ite, {done, pack(op(ValueOp::Add, ph, k(1)), exp, exp, k(0)), pack(ph, pend, exp, t)});
}
// The state after `arrivals` arrive-ons (dropping them from the expected count too when `drop`) and `dtx` more
// expected transaction bytes.
ValuePtr arrive(const ValuePtr& v, const ValuePtr& arrivals, bool drop, const ValuePtr& dtx) {
  return settle(phase(v), op(ValueOp::Sub, pending(v), arrivals),
                drop ? op(ValueOp::Sub, expected(v), arrivals) : expected(v), op(ValueOp::Add, tx(v), dtx));
}
}  // namespace mbar

bool isShared(StateSpace s) {
  return s == StateSpace::Shared || s == StateSpace::SharedCta || s == StateSpace::SharedCluster;
}

std::optional<Tag> semTag(Sem sem) {
  switch (sem) {
    case Sem::Default:
    case Sem::Weak: return Tag::WEAK;
    case Sem::Relaxed:
    case Sem::Volatile:
    case Sem::Mmio: return Tag::RLX;
    case Sem::Acquire: return Tag::ACQ;
    case Sem::Release: return Tag::REL;
    case Sem::AcqRel: return Tag::ACQ_REL;
    case Sem::Sc: return Tag::SC;
  }
  return std::nullopt;
}

TagSet semAndScope(Sem sem, std::optional<model::Scope> scope) {
  TagSet t = tagBit(*semTag(sem));
  if (sem == Sem::Volatile) t |= tagBit(Tag::VOL);
  if (sem == Sem::Mmio) t |= tagBit(Tag::MMIO);
  if (sem == Sem::Volatile || sem == Sem::Mmio) scope = model::Scope::Sys;  // relaxed.sys in the model [§1.5]
  if (sem != Sem::Weak && sem != Sem::Default && scope)
    if (auto st = model::scopeTag(*scope)) t |= tagBit(*st);
  return t;
}

ValueOp localOp(LocalOp o) {
  switch (o) {
    case LocalOp::Mov: break;
    case LocalOp::Add: return ValueOp::Add;
    case LocalOp::Sub: return ValueOp::Sub;
    case LocalOp::Mul: return ValueOp::Mul;
    case LocalOp::Div: return ValueOp::Div;
    case LocalOp::Rem: return ValueOp::Rem;
    case LocalOp::And: return ValueOp::And;
    case LocalOp::Or: return ValueOp::Or;
    case LocalOp::Xor: return ValueOp::Xor;
    case LocalOp::Shl: return ValueOp::Shl;
    case LocalOp::Shr: return ValueOp::Shr;
    case LocalOp::Min: return ValueOp::Min;
    case LocalOp::Max: return ValueOp::Max;
    case LocalOp::Neg: return ValueOp::Neg;
    case LocalOp::Not: return ValueOp::Not;
    case LocalOp::Opaque: return ValueOp::Opaque;
  }
  return ValueOp::Const;  // Mov has no operator
}

ValueOp compareOp(CmpOp c) {
  switch (c) {
    case CmpOp::Eq: return ValueOp::Eq;
    case CmpOp::Ne: return ValueOp::Ne;
    case CmpOp::Lt: return ValueOp::Lt;
    case CmpOp::Le: return ValueOp::Le;
    case CmpOp::Gt: return ValueOp::Gt;
    case CmpOp::Ge: return ValueOp::Ge;
  }
  return ValueOp::Eq;
}

// The value an atomic writes, given the value it read [atom semantics; inc/dec wrap at the operand].
ValuePtr atomicResult(AtomOp o, const ValuePtr& old, const ValuePtr& b, const ValuePtr& c) {
  switch (o) {
    case AtomOp::Add: return op(ValueOp::Add, old, b);
    case AtomOp::Sub: return op(ValueOp::Sub, old, b);
    case AtomOp::Mul: return op(ValueOp::Mul, old, b);
    case AtomOp::Div: return op(ValueOp::Div, old, b);
    case AtomOp::And: return op(ValueOp::And, old, b);
    case AtomOp::Or: return op(ValueOp::Or, old, b);
    case AtomOp::Xor: return op(ValueOp::Xor, old, b);
    case AtomOp::Min: return op(ValueOp::Min, old, b);
    case AtomOp::Max: return op(ValueOp::Max, old, b);
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return c;
    case AtomOp::Inc:
      return value::apply(ValueOp::Ite, {op(ValueOp::Ge, old, b), k(0), op(ValueOp::Add, old, k(1))});
    case AtomOp::Dec:
      return value::apply(ValueOp::Ite, {op(ValueOp::LOr, op(ValueOp::Eq, old, k(0)), op(ValueOp::Gt, old, b)), b,
                                         op(ValueOp::Sub, old, k(1))});
  }
  return b;
}

// The value a kernel's atom/red writes: its operands are canonical `valueBits`-bit values (the low bits,
// sign-extended), unsigned min/max/inc/dec compare as unsigned, and the result wraps back to the width; a
// float RMW (atom.add.f32) writes an opaque value. Litmus atomics (valueBits 0) are untyped 64-bit.
ValuePtr typedAtomicResult(const Instruction& in, const ValuePtr& old, const ValuePtr& b, const ValuePtr& c) {
  const int w = in.valueBits;
  if (w <= 0) return atomicResult(in.atomOp, old, b, c);
  if (in.opaqueValue) return value::apply(ValueOp::Opaque, {op(ValueOp::Add, old, b)});
  auto wrap = [&](const ValuePtr& v) { return w >= 64 ? v : op(ValueOp::Shr, op(ValueOp::Shl, v, k(64 - w)), k(64 - w)); };
  const std::int64_t low = w >= 64 ? -1 : static_cast<std::int64_t>((std::uint64_t{1} << w) - 1);
  auto key = [&](const ValuePtr& v) {  // an operand whose signed order is the value's order
    if (!in.valueUnsigned) return v;
    return w < 64 ? op(ValueOp::And, v, k(low)) : op(ValueOp::Xor, v, k(std::numeric_limits<std::int64_t>::min()));
  };
  switch (in.atomOp) {
    case AtomOp::Min:
    case AtomOp::Max: {
      const ValuePtr r = op(in.atomOp == AtomOp::Min ? ValueOp::Min : ValueOp::Max, key(old), key(b));
      return wrap(in.valueUnsigned && w >= 64 ? op(ValueOp::Xor, r, k(std::numeric_limits<std::int64_t>::min())) : r);
    }
    case AtomOp::Inc:
      return value::apply(ValueOp::Ite, {op(ValueOp::Ge, key(old), key(b)), k(0), wrap(op(ValueOp::Add, old, k(1)))});
    case AtomOp::Dec:
      return value::apply(ValueOp::Ite, {op(ValueOp::LOr, op(ValueOp::Eq, old, k(0)), op(ValueOp::Gt, key(old), key(b))), b,
                                         wrap(op(ValueOp::Sub, old, k(1)))});
    default: return wrap(atomicResult(in.atomOp, old, b, c));
  }
}

// Which kind of location an operand position needs.
enum class Needs : std::uint8_t { Memory, MBarrier, Tmem, AnyData };

std::string kindName(LocationKind kind) {
  switch (kind) {
    case LocationKind::Memory: return "a memory location";
    case LocationKind::MBarrier: return "an mbarrier object";
    case LocationKind::TensorMap: return "a tensor map";
    case LocationKind::Tmem: return "a tensor-memory cell";
  }
  return "a location";
}

class Emitter {
 public:
  Emitter(ThreadContext& ctx, int nodeIndex, const Instruction& in)
      : ctx_(ctx), node_(ctx.out.nodes[static_cast<std::size_t>(nodeIndex)]), nodeIndex_(nodeIndex), in_(in) {}

  AsyncRecord emit();

 private:
  const model::ThreadGraph& thread() const { return ctx_.out; }
  const std::vector<Operand>& ops() const { return in_.operands; }
  ValuePtr operandValue(const Operand& o) {
    return o.kind == Operand::Kind::Register ? value::reg(ctx_.regId(o.name)) : value::constant(o.value);
  }
  void assign(const Operand& dst, ValuePtr v) { node_.assigns.emplace_back(ctx_.regId(dst.name), std::move(v)); }

  // The location an operand names, checked against what the instruction may do with it [§1.3, §4.1].
  const Address& address(const Operand& o, Needs needs, StateSpace space) const;
  TagSet spaceTags(const Address& a) const;
  int addEvent(TagSet tags, const Address* a);
  Event& event(int e) { return ctx_.graph.events[static_cast<std::size_t>(e)]; }
  void order(std::vector<std::pair<int, int>>& list, int a, int b) { list.emplace_back(a, b); }

  // Instruction families.
  void memoryAccess();
  void fence();
  void proxyFence();
  void barrier();
  void clusterBarrier();
  void mbarrierOp(AsyncRecord& r);
  // The value of an mbarrier count operand; an immediate outside least..2^20-1 is a located error.
  ValuePtr mbarrierCount(const Operand& o, std::int64_t least, const std::string& what);
  void cpAsync(AsyncRecord& r);
  void bulkCopy(AsyncRecord& r);
  void asyncStore(AsyncRecord& r);
  void tcgen05(AsyncRecord& r);
  void wgmma(AsyncRecord& r);
  // An mbarrier complete-tx of `bytes` performed when an asynchronous operation completes: a release RMW at
  // cluster scope by the issuing thread [§4.2, §4.7], asynchronous; returns its read half.
  int completeTx(const Operand& mbarOperand, std::int64_t bytes);
  // The implicit async->generic proxy fence that follows completion [§2.10]: accesses -> fence.
  int implicitFence(const std::vector<int>& accesses);
  // An asynchronous read-modify-write: its two halves are not in po, so the read is ordered before the write
  // inside the operation (aint) [§2.2, A10]; `next` gives the written value from the value read. Returns the read;
  // the write half is the next event.
  template <class Next>
  int asyncRmw(TagSet tags, const Address& a, Next next) {
    const int r = addEvent(tags | tagBit(Tag::AS) | tagBit(Tag::R), &a);
    const int w = addEvent(tags | tagBit(Tag::AS) | tagBit(Tag::W), &a);
    event(w).value = next(value::read(r));
    order(ctx_.graph.aint, r, w);
    return r;
  }

  ThreadContext& ctx_;
  model::Node& node_;
  int nodeIndex_;
  const Instruction& in_;
};

const Address& Emitter::address(const Operand& o, Needs needs, StateSpace space) const {
  const Address& a = ctx_.layout.addresses.at(o.name);
  const bool ok = needs == Needs::AnyData ? a.kind == LocationKind::Memory || a.kind == LocationKind::TensorMap
                  : needs == Needs::Memory ? a.kind == LocationKind::Memory || a.kind == LocationKind::TensorMap
                  : needs == Needs::MBarrier ? a.kind == LocationKind::MBarrier
                                             : a.kind == LocationKind::Tmem;
  if (!ok) {
    const std::string wanted = needs == Needs::MBarrier ? "an mbarrier object" : needs == Needs::Tmem ? "a tensor-memory cell"
                                                                                                  : "a memory location";
    throw UserError(o.pos, "'" + o.name + "' is " + kindName(a.kind) + " but " + in_.text + " needs " + wanted);
  }
  const auto& self = thread();
  if (a.kind == LocationKind::Tmem) {
    if (a.ownerCta != self.cta) throw UserError(o.pos, "'" + o.name + "' is tensor memory of another CTA");
    return a;
  }
  if (a.ownerCta < 0) {
    if (isShared(space))
      throw UserError(o.pos, "'" + o.name + "' is in global memory, not in shared memory (" + in_.text + ")");
    return a;
  }
  if (space == StateSpace::Global)
    throw UserError(o.pos, "'" + o.name + "' is in shared memory, not in global memory (" + in_.text + ")");
  if (a.ownerCta == self.cta) return a;
  // Another CTA's shared memory is reachable only inside the cluster, through .shared::cluster [§1.3, §4.1].
  const bool sameCluster = std::any_of(ctx_.graph.threads.begin(), ctx_.graph.threads.end(), [&](const auto& t) {
    return t.cta == a.ownerCta && t.cluster == self.cluster;
  });
  if (!sameCluster)
    throw UserError(o.pos, "'" + o.name + "' is shared memory of a CTA outside the cluster of " + self.name);
  if (space != StateSpace::SharedCluster)
    throw UserError(o.pos, "'" + o.name + "' is shared memory of another CTA: " + self.name +
                               " reaches it only through .shared::cluster");
  return a;
}

TagSet Emitter::spaceTags(const Address& a) const {
  if (a.kind == LocationKind::Tmem) return tagBit(Tag::TMEM);
  if (a.ownerCta < 0 && a.name.rfind("barrier.cluster#", 0) != 0) return tagBit(Tag::GLOBAL);
  TagSet t = tagBit(Tag::SHARED);
  if (a.ownerCta == thread().cta) t |= tagBit(Tag::SHCTA);
  return t;
}

int Emitter::addEvent(TagSet tags, const Address* a) {
  Event e;
  e.tags = tags;
  e.thread = ctx_.thread.index;
  e.node = nodeIndex_;
  if (a) {
    e.vaddr = a->vaddr;
    e.paddr = a->paddr;
    e.tags |= spaceTags(*a);
  }
  e.label = in_.text;
  e.pos = in_.pos;
  ctx_.graph.events.push_back(std::move(e));
  node_.events.push_back(static_cast<int>(ctx_.graph.events.size() - 1));
  return node_.events.back();
}

// ---- ld, st, atom, red [§1.5, §1.6] -------------------------------------------------------------------------

void Emitter::memoryAccess() {
  const bool atomic = in_.op == Opcode::Atom || in_.op == Opcode::Red;
  const Operand& addrOp = in_.op == Opcode::Ld || in_.op == Opcode::Atom ? ops()[1] : ops()[0];
  const Address& a = address(addrOp, Needs::Memory, in_.space);
  // Defaults: ld/st are .weak; atom/red are .relaxed.gpu [§1.5].
  const Sem sem = in_.sem != Sem::Default ? in_.sem : atomic ? Sem::Relaxed : Sem::Weak;
  const auto scope = in_.scope ? in_.scope : atomic ? std::optional(model::Scope::Gpu) : std::nullopt;
  const TagSet tags = tagBit(model::proxyTag(in_.proxy)) | semAndScope(sem, scope);
  switch (in_.op) {
    case Opcode::Ld: assign(ops()[0], value::read(addEvent(tags | tagBit(Tag::R), &a))); return;
    case Opcode::St: event(addEvent(tags | tagBit(Tag::W), &a)).value = operandValue(ops()[1]); return;
    default: break;
  }
  const bool red = in_.op == Opcode::Red;
  const int r = addEvent(tags | tagBit(Tag::R) | (red ? tagBit(Tag::RED) : TagSet()), &a);
  const int w = addEvent(tags | tagBit(Tag::W), &a);
  const ValuePtr old = value::read(r);
  const ValuePtr b = operandValue(red ? ops()[1] : ops()[2]);
  const ValuePtr c = !red && ops().size() > 3 ? operandValue(ops()[3]) : nullptr;
  event(w).value = typedAtomicResult(in_, old, b, c);
  // A failed compare-and-swap writes nothing: its write half exists only when the compare succeeds.
  if (in_.atomOp == AtomOp::Cas) event(w).existsIf = op(ValueOp::Eq, old, b);
  if (!red) assign(ops()[0], old);
}

// ---- fences [§1.5, §4.9, §4.10] ---------------------------------------------------------------------------------

TagSet restrictionTags(FenceKind kind) {
  switch (kind) {
    case FenceKind::Plain: return {};
    case FenceKind::MbarrierInit: return tagBit(Tag::RSTR) | tagBit(Tag::RMBINIT);
    case FenceKind::RestrictSharedCta: return tagBit(Tag::RSTR) | tagBit(Tag::RSHCTA);
    case FenceKind::RestrictSharedCluster: return tagBit(Tag::RSTR) | tagBit(Tag::RSHCLU);
  }
  return {};
}

void Emitter::fence() {
  // fence with no semantics is fence.acq_rel; membar is fence.sc [§1.5].
  const Sem sem = in_.sem == Sem::Default ? Sem::AcqRel : in_.sem;
  addEvent(tagBit(Tag::F) | tagBit(Tag::GEN) | semAndScope(sem, in_.scope) | restrictionTags(in_.fenceKind), nullptr);
}

void Emitter::proxyFence() {
  // A uni-directional proxy fence with semantics is also a release or acquire fence [§2.5, §4.9].
  if (in_.sem != Sem::Default)
    addEvent(tagBit(Tag::F) | tagBit(Tag::GEN) | semAndScope(in_.sem, in_.scope) | restrictionTags(in_.fenceKind), nullptr);
  TagSet tags = tagBit(Tag::PF) | (in_.aliasFence ? tagBit(Tag::ALIAS) : tagBit(model::proxyTag(in_.proxy)));
  if (in_.uniDirectional) tags |= tagBit(Tag::PFUNI);
  if (in_.space == StateSpace::Global) tags |= tagBit(Tag::GLOBAL);
  if (isShared(in_.space)) tags |= tagBit(Tag::SHARED);
  if (ops().empty()) {
    addEvent(tags, nullptr);
    return;
  }
  // The ranged form (fence.proxy.tensormap::generic.acquire [a], 128) fences one address only.
  const Address& a = address(ops()[0], Needs::Memory, StateSpace::Unspecified);
  const int pf = addEvent(tags | tagBit(Tag::PFRANGE), nullptr);
  event(pf).vaddr = a.vaddr;
}

// ---- barriers [§2.8, §4.3-§4.5] ---------------------------------------------------------------------------------

void Emitter::barrier() {
  // bar.sync = arrive half then wait half; bar.arrive = arrive half only; bar.warp.sync like bar.sync among
  // the lanes (threads) of the warp, keyed by its member mask [§2.8, §4.5]. Dat3M's `bar.cta.sync C, ID, Q`
  // names its resource ID apart from its label C and counts its quorum Q in test threads.
  model::BarrierSpec spec;
  spec.aligned = in_.aligned;
  if (in_.dat3mBarrier && ops().size() > 1) {
    spec.label = ops()[0].value;
    spec.id = operandValue(ops()[1]);
    if (ops().size() > 2) spec.quorum = operandValue(ops()[2]);
  } else {
    spec.id = operandValue(ops().at(0));
    if (ops().size() > 1) spec.count = operandValue(ops()[1]);
  }
  std::vector<Tag> halves{Tag::BA};
  if (in_.op != Opcode::BarArrive) halves.push_back(Tag::BW);
  for (Tag h : halves) {
    TagSet tags = tagBit(h) | tagBit(Tag::GEN);
    if (in_.op == Opcode::BarWarpSync) tags |= tagBit(Tag::WBAR);
    event(addEvent(tags, nullptr)).barrier = spec;
  }
}

// barrier.cluster as an RMW on the cluster's barrier location (arrive: +1, release by default) and a read that
// blocks until every participating thread of the cluster arrived for this phase (wait: acquire) [§2.8, A9].
void Emitter::clusterBarrier() {
  const auto& self = thread();
  const Address& a = ctx_.layout.clusterBarriers.at(self.cluster);
  const TagSet common = tagBit(Tag::CB) | tagBit(Tag::GEN) | tagBit(Tag::CLUSTER);
  if (in_.op == Opcode::ClusterArrive) {
    const Sem sem = in_.sem == Sem::Default ? Sem::Release : in_.sem;
    const TagSet tags = common | tagBit(*semTag(sem));
    const int r = addEvent(tags | tagBit(Tag::R), &a);
    event(addEvent(tags | tagBit(Tag::W), &a)).value = op(ValueOp::Add, value::read(r), k(1));
    return;
  }
  std::int64_t participants = 0;
  for (const auto& t : ctx_.program.threads)
    if (ctx_.graph.threads[static_cast<std::size_t>(t.index)].cluster == self.cluster &&
        std::any_of(t.code.begin(), t.code.end(), [](const Instruction& i) { return i.op == Opcode::ClusterArrive; }))
      ++participants;
  std::int64_t arrived = 0;  // this thread's arrivals before the wait (barrier.cluster is never inside a loop)
  for (const auto& i : ctx_.thread.code) {
    if (&i == &in_) break;
    arrived += i.op == Opcode::ClusterArrive;
  }
  const int r = addEvent(common | tagBit(Tag::R) | tagBit(Tag::ACQ), &a);
  event(r).assume = op(ValueOp::Eq, value::read(r), k(participants * arrived));
}

// ---- mbarrier [§4.2] ------------------------------------------------------------------------------------------------

ValuePtr Emitter::mbarrierCount(const Operand& o, std::int64_t least, const std::string& what) {
  if (o.kind == Operand::Kind::Immediate && (o.value < least || o.value > mbar::kMaxCount))
    throw UserError(o.pos, what + " must be in " + std::to_string(least) + ".." + std::to_string(mbar::kMaxCount) +
                               " (PTX ISA: contents of the mbarrier object), not " + std::to_string(o.value));
  return operandValue(o);
}

void Emitter::mbarrierOp(AsyncRecord&) {
  const bool init = in_.op == Opcode::MbarInit;
  const Operand& mOp = in_.op == Opcode::MbarArrive || in_.op == Opcode::MbarWait ? ops()[1] : ops()[0];
  const Address& m = address(mOp, Needs::MBarrier, in_.space);
  if (in_.op == Opcode::MbarWait && m.ownerCta != thread().cta)
    throw UserError(mOp.pos, "mbarrier waits must target the executing CTA's own mbarrier ('" + mOp.name +
                                 "' belongs to another CTA) [§4.2]");
  const TagSet base = tagBit(Tag::MB) | tagBit(Tag::GEN);
  if (init) {
    const ValuePtr n = mbarrierCount(ops()[1], 1, "the expected arrival count of mbarrier.init");
    event(addEvent(base | tagBit(Tag::W) | tagBit(Tag::WEAK) | tagBit(Tag::MBINIT), &m)).value =
        mbar::pack(k(0), n, n, k(0));
    return;
  }
  // Defaults: arrive .release.cta, waits .acquire.cta, expect_tx/complete_tx .relaxed.cta [§1.5, A12].
  const Sem defaultSem = in_.op == Opcode::MbarArrive ? Sem::Release : in_.op == Opcode::MbarWait ? Sem::Acquire
                                                                                                   : Sem::Relaxed;
  const Sem sem = in_.sem == Sem::Default ? defaultSem : in_.sem;
  const TagSet tags = base | semAndScope(sem, in_.scope ? in_.scope : std::optional(model::Scope::Cta));
  if (in_.op == Opcode::MbarWait) {
    const int r = addEvent(tags | tagBit(Tag::R), &m);
    const ValuePtr v = value::read(r);
    const ValuePtr arg = operandValue(ops()[2]);
    // A token is the phase it was taken in (modulo 4, like the phase): its phase completed iff the phase moved on.
    const ValuePtr done = in_.parity ? op(ValueOp::Ne, op(ValueOp::And, mbar::phase(v), k(1)), arg)
                                     : op(ValueOp::Ne, mbar::phase(v), arg);
    assign(ops()[0], done);
    // Only a successful acquire wait acquires: its marker exists iff the wait returns true [§2.1].
    if (sem == Sem::Acquire) {
      Event& ok = event(addEvent(tagBit(Tag::MBOK) | tagBit(Tag::GEN) | (tags & ~tagBit(Tag::MB)), nullptr));
      ok.existsIf = done;
    }
    return;
  }
  const int r = addEvent(tags | tagBit(Tag::R), &m);
  const ValuePtr old = value::read(r);
  Event& w = event(addEvent(tags | tagBit(Tag::W), &m));
  switch (in_.op) {
    case Opcode::MbarArrive: {
      const bool counted = ops().size() > 2 && !in_.expectTx;
      const ValuePtr arrivals = counted ? mbarrierCount(ops()[2], 1, "the arrival count") : k(1);
      const ValuePtr dtx = in_.expectTx ? mbarrierCount(ops()[2], 0, "the transaction count") : k(0);
      w.value = mbar::arrive(old, arrivals, in_.drop, dtx);
      if (!in_.sink) assign(ops()[0], mbar::phase(old));  // the state token: the phase the arrival counted for
      return;
    }
    case Opcode::MbarExpectTx:
      w.value = mbar::pack(mbar::phase(old), mbar::pending(old), mbar::expected(old),
                           op(ValueOp::Add, mbar::tx(old), mbarrierCount(ops()[1], 0, "the transaction count")));
      return;
    default:  // MbarCompleteTx
      w.value = mbar::settle(mbar::phase(old), mbar::pending(old), mbar::expected(old),
                             op(ValueOp::Sub, mbar::tx(old), mbarrierCount(ops()[1], 0, "the transaction count")));
      return;
  }
}

int Emitter::completeTx(const Operand& mbarOperand, std::int64_t bytes) {
  const Address& m = address(mbarOperand, Needs::MBarrier, StateSpace::SharedCluster);
  if (bytes > mbar::kMaxCount)
    throw UserError(mbarOperand.pos, "the operation completes " + std::to_string(bytes) +
                                         " transaction bytes on one mbarrier, more than its tx-count range allows (at most " +
                                         std::to_string(mbar::kMaxCount) + ", PTX ISA: contents of the mbarrier object)");
  const TagSet tags = tagBit(Tag::MB) | tagBit(Tag::GEN) | tagBit(Tag::REL) | tagBit(Tag::CLUSTER);
  return asyncRmw(tags, m, [&](const ValuePtr& old) {
    return mbar::settle(mbar::phase(old), mbar::pending(old), mbar::expected(old), op(ValueOp::Sub, mbar::tx(old), k(bytes)));
  });
}

int Emitter::implicitFence(const std::vector<int>& accesses) {
  const int pf = addEvent(tagBit(Tag::PF) | tagBit(Tag::ASYNC) | tagBit(Tag::AS), nullptr);
  for (int a : accesses) order(ctx_.graph.adone, a, pf);
  return pf;
}

// ---- cp.async (non-bulk) [§4.6] ------------------------------------------------------------------------------------

void Emitter::cpAsync(AsyncRecord& r) {
  switch (in_.op) {
    case Opcode::CpAsync: {
      const Address& dst = address(ops()[0], Needs::Memory, StateSpace::SharedCta);
      const Address& src = address(ops()[1], Needs::Memory, StateSpace::Global);
      const TagSet tags = tagBit(Tag::GEN) | tagBit(Tag::WEAK) | tagBit(Tag::AS);
      const int rd = addEvent(tags | tagBit(Tag::R), &src);
      const int wr = addEvent(tags | tagBit(Tag::W), &dst);
      event(wr).value = value::read(rd);
      order(ctx_.graph.aint, rd, wr);
      r = {AsyncKind::CpAsync, {rd, wr}, {rd}};
      return;
    }
    case Opcode::CpAsyncCommit: r.kind = in_.bulkGroup ? AsyncKind::BulkCommit : AsyncKind::CpCommit; return;
    case Opcode::CpAsyncWait:
      r.kind = in_.bulkGroup ? AsyncKind::BulkWait : AsyncKind::CpWait;
      r.marker = addEvent(tagBit(Tag::AWAIT) | tagBit(Tag::GEN), nullptr);
      r.groups = in_.waitAll ? 0 : ops().at(0).value;
      r.commitsFirst = in_.waitAll;
      r.readOnly = in_.readOnly;
      return;
    default: {  // CpAsyncMbarArrive: an arrive-on after the thread's prior cp.async complete [§4.2, §4.6]
      const Address& m = address(ops()[0], Needs::MBarrier, in_.space);
      const TagSet tags = tagBit(Tag::MB) | tagBit(Tag::GEN) | tagBit(Tag::REL) | tagBit(Tag::CTA);
      if (!in_.noinc) {  // without .noinc the pending count goes up first: net zero for the current phase
        const int ri = addEvent(tags | tagBit(Tag::R), &m);
        const ValuePtr old = value::read(ri);
        event(addEvent(tags | tagBit(Tag::W), &m)).value =
            mbar::pack(mbar::phase(old), op(ValueOp::Add, mbar::pending(old), k(1)), mbar::expected(old), mbar::tx(old));
      }
      r.kind = AsyncKind::CpMbarArrive;
      r.marker = asyncRmw(tags, m, [&](const ValuePtr& old) { return mbar::arrive(old, k(1), false, k(0)); });
      return;
    }
  }
}

// ---- bulk copies and TMA [§4.7] -------------------------------------------------------------------------------------

void Emitter::bulkCopy(AsyncRecord& r) {
  const bool tensor = in_.bulk == BulkKind::TensorLoad || in_.bulk == BulkKind::TensorStore;
  // Operands: [dst], [src] (tensor load: [dst], [tmap, src]; tensor store: [tmap, dst], [src]), size, [mbar]. A
  // kernel's non-tensor copy may list several [dst], [src] pairs before the size: its elements, as the kernel's
  // other accesses see them (one element access each, one completion for all).
  std::size_t i = 0;
  const Operand* tmapOp = in_.bulk == BulkKind::TensorStore ? &ops()[i++] : nullptr;
  std::vector<std::pair<const Operand*, const Operand*>> parts;  // (dst, src)
  if (tensor) {
    const Operand* dstOp = &ops()[i++];
    if (in_.bulk == BulkKind::TensorLoad) tmapOp = &ops()[i++];
    parts.emplace_back(dstOp, &ops()[i++]);
  } else {
    do {
      parts.emplace_back(&ops()[i], &ops()[i + 1]);
      i += 2;
    } while (i + 1 < ops().size() && ops()[i].kind == Operand::Kind::Location && ops()[i + 1].kind == Operand::Kind::Location);
  }
  const bool toShared = in_.bulk != BulkKind::SharedToGlobal && in_.bulk != BulkKind::TensorStore;
  const bool fromGlobal = in_.bulk == BulkKind::GlobalToShared || in_.bulk == BulkKind::TensorLoad;
  const StateSpace dstSpace = !toShared ? StateSpace::Global
                              : in_.space == StateSpace::SharedCta ? StateSpace::SharedCta
                                                                   : StateSpace::SharedCluster;
  std::vector<std::pair<const Address*, const Address*>> at;
  std::int64_t bytes = 0;
  for (const auto& [dstOp, srcOp] : parts) {
    const Address& dst = address(*dstOp, Needs::Memory, dstSpace);
    const Address& src = address(*srcOp, Needs::Memory, fromGlobal ? StateSpace::Global : StateSpace::SharedCta);
    if (dst.size != src.size)
      throw UserError(dstOp->pos, "'" + dstOp->name + "' has " + std::to_string(dst.size) + " bytes but '" + srcOp->name +
                                      "' has " + std::to_string(src.size));
    at.emplace_back(&dst, &src);
    bytes += dst.size;
  }
  if (!tensor) {
    const Operand& sizeOp = ops()[i++];
    if (sizeOp.value != bytes)
      throw UserError(sizeOp.pos, "the copy moves " + std::to_string(sizeOp.value) + " bytes but '" + parts[0].first->name +
                                      (parts.size() > 1 ? "' and the other elements have " : "' has ") + std::to_string(bytes));
  }
  // The copy's reads and writes are weak accesses of the async proxy [§4.7].
  const TagSet tags = tagBit(Tag::ASYNC) | tagBit(Tag::WEAK) | tagBit(Tag::AS);
  std::vector<int> maps, reads, writes, stored;  // stored: the writes that complete each element
  if (tmapOp) {  // the tensor map is read in the tensormap proxy
    const Address& map = ctx_.layout.addresses.at(tmapOp->name);
    if (map.kind != LocationKind::TensorMap)
      throw UserError(tmapOp->pos, "'" + tmapOp->name + "' is " + kindName(map.kind) + ", not a tensor map");
    maps.push_back(addEvent(tagBit(Tag::TMAP) | tagBit(Tag::WEAK) | tagBit(Tag::AS) | tagBit(Tag::R), &map));
  }
  for (const auto& [dst, src] : at) {
    const int rd = addEvent(tags | tagBit(Tag::R), src);
    int wr;
    if (in_.reduce) {
      // cp.reduce.async.bulk: each element is combined into the destination by a .relaxed.gpu atomic RMW of the
      // async proxy [§4.7]; its read returns nothing to the thread (RED).
      const int old = asyncRmw(tagBit(Tag::ASYNC) | semAndScope(Sem::Relaxed, model::Scope::Gpu), *dst,
                               [&](const ValuePtr& v) { return atomicResult(in_.atomOp, v, value::read(rd), nullptr); });
      event(old).tags |= tagBit(Tag::RED);
      order(ctx_.graph.aint, rd, old);
      writes.push_back(old);
      wr = old + 1;
    } else {
      wr = addEvent(tags | tagBit(Tag::W), dst);
      event(wr).value = value::read(rd);
    }
    for (int m : maps) order(ctx_.graph.aint, m, wr);
    order(ctx_.graph.aint, rd, wr);
    reads.push_back(rd);
    writes.push_back(wr);
    stored.push_back(wr);
  }
  r.reads = maps;  // what wait_group.read waits for: the tensor map and the sources, not the destinations
  r.reads.insert(r.reads.end(), reads.begin(), reads.end());
  r.accesses = r.reads;
  r.accesses.insert(r.accesses.end(), writes.begin(), writes.end());
  // Completion is followed by an implicit async->generic proxy fence [§2.10, §4.7].
  r.implicitFence = implicitFence(stored);
  if (in_.bulk == BulkKind::SharedToGlobal || in_.bulk == BulkKind::TensorStore) {
    // A `.read` wait retires the reads alone, and the source may be reused after it (PTX ISA,
    // cp.async.bulk.wait_group: "completed reading from their source locations"): the completion of the reads is
    // followed by the implicit async->generic proxy fence too, so a generic write of the source after the wait is
    // ordered after the copy's async-proxy read [§2.10 C3, §4.7].
    r.reads.push_back(implicitFence(r.reads));
    r.kind = AsyncKind::BulkGroup;
    r.marker = addEvent(tagBit(Tag::GD) | tagBit(Tag::AS), nullptr);
    for (int a : r.accesses) order(ctx_.graph.adone, a, r.marker);
    order(ctx_.graph.adone, r.implicitFence, r.marker);
  } else {
    r.kind = AsyncKind::BulkMbar;
    r.marker = completeTx(ops().back(), bytes);
    order(ctx_.graph.adone, r.implicitFence, r.marker);
  }
}

// ---- st.async, red.async [§4.8] --------------------------------------------------------------------------------------

void Emitter::asyncStore(AsyncRecord& r) {
  const bool withMbar = ops().size() > 2;
  const Address& a = address(ops()[0], Needs::Memory, withMbar ? StateSpace::SharedCluster : StateSpace::Global);
  if (withMbar) {
    // The destination's mbarrier must be in the same CTA as the destination [§4.8].
    const Address& m = ctx_.layout.addresses.at(ops()[2].name);
    if (m.ownerCta != a.ownerCta)
      throw UserError(ops()[2].pos, "the mbarrier of st.async/red.async must be in the CTA of the destination");
  }
  const Sem sem = in_.sem == Sem::Default ? (in_.op == Opcode::RedAsync ? Sem::Relaxed : Sem::Weak) : in_.sem;
  const auto scope = in_.scope ? in_.scope : in_.op == Opcode::RedAsync ? std::optional(model::Scope::Cluster) : std::nullopt;
  // st.async runs in the generic proxy (§8 A11); red.async is stated to (9.4).
  const TagSet tags = tagBit(Tag::GEN) | semAndScope(sem, scope);
  r.kind = AsyncKind::AsyncStore;
  if (in_.op == Opcode::StAsync) {
    const int w = addEvent(tags | tagBit(Tag::AS) | tagBit(Tag::W), &a);
    event(w).value = operandValue(ops()[1]);
    r.accesses = {w};
  } else {
    const int rd = asyncRmw(tags, a, [&](const ValuePtr& old) {
      return atomicResult(in_.atomOp, old, operandValue(ops()[1]), nullptr);
    });
    event(rd).tags |= tagBit(Tag::RED);  // a reduction's read returns nothing to the thread
    r.accesses = {rd, rd + 1};
  }
  if (withMbar) {
    r.marker = completeTx(ops()[2], a.size);
    for (int x : r.accesses) order(ctx_.graph.adone, x, r.marker);
  }
}

// ---- tcgen05 [§4.12] and wgmma [§4.13] ---------------------------------------------------------------------------

void Emitter::tcgen05(AsyncRecord& r) {
  const TagSet async = tagBit(Tag::AS) | tagBit(Tag::WEAK);
  switch (in_.op) {
    case Opcode::TcMma:
    case Opcode::TcCp: {
      // Shared-memory operands are read in the async proxy; the tensor-memory result is written generically.
      const Address& d = address(ops()[0], Needs::Tmem, StateSpace::Unspecified);
      std::vector<int> reads;
      ValuePtr sum = k(0);
      for (std::size_t s = 1; s < ops().size(); ++s) {
        const Address& a = address(ops()[s], Needs::Memory, StateSpace::SharedCta);
        reads.push_back(addEvent(async | tagBit(Tag::ASYNC) | tagBit(Tag::R), &a));
        sum = op(ValueOp::Add, sum, value::read(reads.back()));
      }
      const int w = addEvent(async | tagBit(Tag::GEN) | tagBit(Tag::W), &d);
      event(w).value = sum;  // abstract: d := a + b (mma), d := s (cp)
      for (int x : reads) order(ctx_.graph.aint, x, w);
      r = {AsyncKind::TcOp, reads, reads};
      r.accesses.push_back(w);
      return;
    }
    case Opcode::TcLd: {
      const int rd = addEvent(async | tagBit(Tag::GEN) | tagBit(Tag::R), &address(ops()[1], Needs::Tmem, StateSpace::Unspecified));
      assign(ops()[0], value::read(rd));
      r = {AsyncKind::TcLd, {rd}, {rd}};
      return;
    }
    case Opcode::TcSt: {
      const int w = addEvent(async | tagBit(Tag::GEN) | tagBit(Tag::W), &address(ops()[0], Needs::Tmem, StateSpace::Unspecified));
      event(w).value = operandValue(ops()[1]);
      r = {AsyncKind::TcSt, {w}, {}};
      return;
    }
    case Opcode::TcCommit: {
      // An arrive-on (release, cluster scope) after the thread's prior mma/cp complete [§4.12].
      const Address& m = address(ops()[0], Needs::MBarrier, in_.space);
      const TagSet tags = tagBit(Tag::MB) | tagBit(Tag::GEN) | tagBit(Tag::REL) | tagBit(Tag::CLUSTER);
      r.kind = AsyncKind::TcCommit;
      r.implicitFence = implicitFence({});
      r.marker = asyncRmw(tags, m, [&](const ValuePtr& old) { return mbar::arrive(old, k(1), false, k(0)); });
      order(ctx_.graph.adone, r.implicitFence, r.marker);
      return;
    }
    case Opcode::TcWait:
      r.kind = in_.waitSt ? AsyncKind::TcWaitSt : AsyncKind::TcWaitLd;
      r.marker = addEvent(tagBit(Tag::AWAIT) | tagBit(Tag::GEN), nullptr);
      return;
    default:  // TcFence
      r.kind = in_.afterSync ? AsyncKind::TcFenceAfter : AsyncKind::TcFenceBefore;
      r.marker = addEvent(tagBit(Tag::TCF) | tagBit(Tag::GEN), nullptr);
      return;
  }
}

void Emitter::wgmma(AsyncRecord& r) {
  switch (in_.op) {
    case Opcode::WgmmaFence:
      r.kind = AsyncKind::WgFence;
      r.marker = addEvent(tagBit(Tag::WGF) | tagBit(Tag::GEN), nullptr);
      return;
    case Opcode::WgmmaMma: {
      ValuePtr sum = k(0);
      for (std::size_t s = 1; s < ops().size(); ++s) {
        const Address& a = address(ops()[s], Needs::Memory, StateSpace::SharedCta);
        r.accesses.push_back(addEvent(tagBit(Tag::AS) | tagBit(Tag::WEAK) | tagBit(Tag::ASYNC) | tagBit(Tag::R), &a));
        sum = op(ValueOp::Add, sum, value::read(r.accesses.back()));
      }
      r.kind = AsyncKind::WgMma;
      r.reads = r.accesses;
      assign(ops()[0], sum);  // abstract: the accumulator := a + b
      return;
    }
    case Opcode::WgmmaCommit: r.kind = AsyncKind::WgCommit; return;
    default:  // WgmmaWait: completion carries the implicit async->generic proxy fence [§4.13]
      r.kind = AsyncKind::WgWait;
      r.implicitFence = implicitFence({});
      r.marker = addEvent(tagBit(Tag::AWAIT) | tagBit(Tag::GEN), nullptr);
      order(ctx_.graph.adone, r.implicitFence, r.marker);
      r.groups = ops().at(0).value;
      return;
  }
}

AsyncRecord Emitter::emit() {
  AsyncRecord r;
  switch (in_.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: memoryAccess(); break;
    case Opcode::Fence: fence(); break;
    case Opcode::FenceProxy: proxyFence(); break;
    case Opcode::BarSync:
    case Opcode::BarArrive:
    case Opcode::BarWarpSync: barrier(); break;
    case Opcode::ClusterArrive:
    case Opcode::ClusterWait: clusterBarrier(); break;
    case Opcode::MbarInit:
    case Opcode::MbarArrive:
    case Opcode::MbarExpectTx:
    case Opcode::MbarCompleteTx:
    case Opcode::MbarWait: mbarrierOp(r); break;
    case Opcode::CpAsync:
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
    case Opcode::CpAsyncMbarArrive: cpAsync(r); break;
    case Opcode::BulkCopy: bulkCopy(r); break;
    case Opcode::StAsync:
    case Opcode::RedAsync: asyncStore(r); break;
    case Opcode::TcMma:
    case Opcode::TcCp:
    case Opcode::TcLd:
    case Opcode::TcSt:
    case Opcode::TcCommit:
    case Opcode::TcWait:
    case Opcode::TcFence: tcgen05(r); break;
    case Opcode::WgmmaFence:
    case Opcode::WgmmaMma:
    case Opcode::WgmmaCommit:
    case Opcode::WgmmaWait: wgmma(r); break;
    case Opcode::Local: {
      std::vector<ValuePtr> args;
      for (std::size_t s = 1; s < ops().size(); ++s) args.push_back(operandValue(ops()[s]));
      if (in_.localOp == LocalOp::Opaque) {  // one argument carrying the sources' reads (dependencies)
        ValuePtr deps = k(0);
        for (const auto& a : args) deps = op(ValueOp::Add, deps, a);
        args = {deps};
      }
      assign(ops()[0], in_.localOp == LocalOp::Mov ? args.at(0) : value::apply(localOp(in_.localOp), args));
      break;
    }
    case Opcode::Setp: assign(ops()[0], op(compareOp(in_.cmp), operandValue(ops()[1]), operandValue(ops()[2]))); break;
    case Opcode::Branch:
      if (in_.predicated) {
        const ValuePtr p = operandValue(ops()[0]);
        node_.branch = in_.negatePredicate ? value::apply(ValueOp::LNot, {p}) : op(ValueOp::Ne, p, k(0));
      } else {
        node_.branch = op(compareOp(in_.cmp), operandValue(ops()[0]), operandValue(ops()[1]));
      }
      break;
    case Opcode::Goto:
    case Opcode::Label: break;
  }
  return r;
}

// Instruction index ranges [target, source] of the backward jumps of a thread.
std::vector<std::pair<std::size_t, std::size_t>> loopRanges(const Thread& t) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < t.code.size(); ++i) {
    const auto& in = t.code[i];
    if (in.op != Opcode::Branch && in.op != Opcode::Goto) continue;
    for (std::size_t j = 0; j <= i; ++j)
      if (t.code[j].op == Opcode::Label && t.code[j].operands.at(0).name == in.operands.back().name) out.emplace_back(j, i);
  }
  return out;
}

// The Hopper-era instructions that count barrier phases or async groups in program order. The others count
// nothing there: bar.warp.sync is a barrier like bar.sync, an mbarrier keeps its phase in its own state, and
// st.async/red.async complete on an mbarrier.
bool needsStraightLine(Opcode op) {
  switch (op) {
    case Opcode::BarWarpSync:
    case Opcode::MbarInit:
    case Opcode::MbarArrive:
    case Opcode::MbarExpectTx:
    case Opcode::MbarCompleteTx:
    case Opcode::MbarWait:
    case Opcode::StAsync:
    case Opcode::RedAsync: return false;
    default: return isHopperEra(op);
  }
}

}  // namespace

AsyncRecord emitInstruction(ThreadContext& ctx, int nodeIndex, const Instruction& in) {
  return Emitter(ctx, nodeIndex, in).emit();
}

void checkProgram(const Program& program) {
  std::set<std::string> initialised;
  for (const auto& t : program.threads)
    for (const auto& in : t.code)
      if (in.op == Opcode::MbarInit) initialised.insert(in.operands.at(0).name);
  for (const auto& t : program.threads) {
    const auto loops = loopRanges(t);
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const auto& in = t.code[i];
      // Counting phases and async groups follows the source order, which a loop would not repeat.
      if (needsStraightLine(in.op))
        for (auto [from, to] : loops)
          if (from <= i && i <= to)
            throw UserError(in.pos, "'" + in.text + "' inside a loop is not supported (barrier phases and async "
                                                    "groups are counted in program order)");
      for (const auto& o : in.operands) {
        if (o.kind != Operand::Kind::Location || initialised.count(o.name)) continue;
        for (const auto& loc : program.locations)
          if (loc.name == o.name && loc.kind == LocationKind::MBarrier && in.op != Opcode::MbarInit)
            throw UserError(o.pos, "mbarrier '" + o.name + "' is used but no thread initialises it (mbarrier.init)");
      }
    }
  }
}

}  // namespace ptxmm::frontend
