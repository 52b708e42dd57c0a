// Program -> EventGraph: locations, the scope tree, the meaning of each instruction as events, and loop
// unrolling with register liveness (which the engines use to recognise side-effect-free spin iterations).
#include "frontend/Unroller.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>

namespace ptxmm::frontend {
namespace {

using model::Edge;
using model::Event;
using model::EventGraph;
using model::Tag;
using model::TagSet;
using model::tagBit;
using model::UserError;
using model::ValueOp;
using model::ValuePtr;
namespace value = model::value;

struct Address {
  int vaddr;
  int paddr;
  bool shared;
};

// ---- the meaning of qualifiers as tags [§1.5, §1.6] ----------------------------------------------------

bool isShared(StateSpace s) {
  return s == StateSpace::Shared || s == StateSpace::SharedCta || s == StateSpace::SharedCluster;
}

// Tags of a memory access. `atomic` selects the defaults of atom/red (.relaxed.gpu); ld/st default to .weak.
// .volatile and .mmio behave as .relaxed.sys in the model [§1.5].
TagSet accessTags(const Instruction& in, const Address& a, bool atomic) {
  TagSet t = tagBit(model::proxyTag(in.proxy));
  Sem sem = in.sem == Sem::Default ? (atomic ? Sem::Relaxed : Sem::Weak) : in.sem;
  std::optional<model::Scope> scope = in.scope;
  if (atomic && !scope) scope = model::Scope::Gpu;
  switch (sem) {
    case Sem::Default:
    case Sem::Weak: t |= tagBit(Tag::WEAK); break;
    case Sem::Relaxed: t |= tagBit(Tag::RLX); break;
    case Sem::Acquire: t |= tagBit(Tag::ACQ); break;
    case Sem::Release: t |= tagBit(Tag::REL); break;
    case Sem::AcqRel: t |= tagBit(Tag::ACQ_REL); break;
    case Sem::Sc: t |= tagBit(Tag::SC); break;
    case Sem::Volatile:
      t |= tagBit(Tag::RLX) | tagBit(Tag::VOL);
      scope = model::Scope::Sys;
      break;
    case Sem::Mmio:
      t |= tagBit(Tag::RLX) | tagBit(Tag::MMIO);
      scope = model::Scope::Sys;
      break;
  }
  if (!t.test(static_cast<std::size_t>(Tag::WEAK)) && scope)
    if (auto st = model::scopeTag(*scope)) t |= tagBit(*st);
  t |= tagBit(isShared(in.space) || a.shared ? Tag::SHARED : Tag::GLOBAL);
  return t;
}

// Tags of a memory fence: fence with no semantics is fence.acq_rel; membar is fence.sc [§1.5].
TagSet fenceTags(const Instruction& in) {
  TagSet t = tagBit(Tag::F) | tagBit(Tag::GEN);
  switch (in.sem) {
    case Sem::Sc: t |= tagBit(Tag::SC); break;
    case Sem::Acquire: t |= tagBit(Tag::ACQ); break;
    case Sem::Release: t |= tagBit(Tag::REL); break;
    default: t |= tagBit(Tag::ACQ_REL); break;
  }
  if (in.scope)
    if (auto st = model::scopeTag(*in.scope)) t |= tagBit(*st);
  return t;
}

ValueOp localOp(LocalOp op) {
  switch (op) {
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
  }
  return ValueOp::Const;  // Mov has no operator
}

ValueOp compareOp(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return ValueOp::Eq;
    case CmpOp::Ne: return ValueOp::Ne;
    case CmpOp::Lt: return ValueOp::Lt;
    case CmpOp::Le: return ValueOp::Le;
    case CmpOp::Gt: return ValueOp::Gt;
    case CmpOp::Ge: return ValueOp::Ge;
  }
  return ValueOp::Eq;
}

// The value an atomic writes, given the value it read [§5.2 atom semantics; inc/dec wrap at the operand].
ValuePtr atomicResult(AtomOp op, const ValuePtr& old, const ValuePtr& b, const ValuePtr& c) {
  using value::apply;
  switch (op) {
    case AtomOp::Add: return apply(ValueOp::Add, {old, b});
    case AtomOp::Sub: return apply(ValueOp::Sub, {old, b});
    case AtomOp::Mul: return apply(ValueOp::Mul, {old, b});
    case AtomOp::Div: return apply(ValueOp::Div, {old, b});
    case AtomOp::And: return apply(ValueOp::And, {old, b});
    case AtomOp::Or: return apply(ValueOp::Or, {old, b});
    case AtomOp::Xor: return apply(ValueOp::Xor, {old, b});
    case AtomOp::Min: return apply(ValueOp::Min, {old, b});
    case AtomOp::Max: return apply(ValueOp::Max, {old, b});
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return c;
    case AtomOp::Inc:
      return apply(ValueOp::Ite, {apply(ValueOp::Ge, {old, b}), value::constant(0),
                                  apply(ValueOp::Add, {old, value::constant(1)})});
    case AtomOp::Dec:
      return apply(ValueOp::Ite, {apply(ValueOp::LOr, {apply(ValueOp::Eq, {old, value::constant(0)}),
                                                       apply(ValueOp::Gt, {old, b})}),
                                  b, apply(ValueOp::Sub, {old, value::constant(1)})});
  }
  return b;
}

// ---- control flow --------------------------------------------------------------------------------------

struct Flow {
  std::vector<int> succ;  // successor instruction indices; size() marks the end of the thread
  int branchTarget = -1;  // for a conditional branch: the taken target
};

class ThreadUnroller {
 public:
  ThreadUnroller(const Program& program, const Thread& thread, const std::map<std::string, Address>& addresses,
                 int bound, EventGraph& graph, model::ThreadGraph& out)
      : program_(program), thread_(thread), addresses_(addresses), bound_(bound), graph_(graph), out_(out) {}

  void run() {
    collectRegisters();
    if (thread_.code.empty()) return;
    buildFlow();
    findLoops();
    computeLiveness();
    discover();
    emitNodes();
  }

 private:
  using Counts = std::vector<int>;  // per loop: iteration index, -1 outside the loop
  struct Key {
    int instr;
    Counts counts;
    bool operator<(const Key& o) const { return std::tie(instr, counts) < std::tie(o.instr, o.counts); }
  };
  struct Discovered {
    Key key;
    Edge next, taken;  // targets are discovery indices until emitNodes renumbers them
  };

  int size() const { return static_cast<int>(thread_.code.size()); }

  int regId(const std::string& name) {
    auto it = std::find(out_.registers.begin(), out_.registers.end(), name);
    if (it != out_.registers.end()) return static_cast<int>(it - out_.registers.begin());
    out_.registers.push_back(name);
    out_.regInit.push_back(0);
    return static_cast<int>(out_.registers.size() - 1);
  }

  void collectRegisters() {
    for (const auto& ri : program_.regInits)
      if (ri.thread == thread_.index) out_.regInit[static_cast<std::size_t>(regId(ri.reg))] = ri.value;
    for (const auto& in : thread_.code)
      for (const auto& op : in.operands)
        if (op.kind == Operand::Kind::Register) regId(op.name);
    for (const auto& [t, name] : observedRegisters(program_))
      if (t == thread_.index) regId(name);
  }

  int labelIndex(const Operand& label) const {
    for (int i = 0; i < size(); ++i) {
      const auto& in = thread_.code[static_cast<std::size_t>(i)];
      if (in.op == Opcode::Label && in.operands.at(0).name == label.name) return i;
    }
    throw UserError(label.pos, "unknown label '" + label.name + "'");
  }

  void buildFlow() {
    flow_.resize(thread_.code.size());
    for (int i = 0; i < size(); ++i) {
      const auto& in = thread_.code[static_cast<std::size_t>(i)];
      auto& f = flow_[static_cast<std::size_t>(i)];
      if (in.op == Opcode::Goto) {
        f.succ = {labelIndex(in.operands.back())};
      } else if (in.op == Opcode::Branch) {
        f.branchTarget = labelIndex(in.operands.back());
        f.succ = {i + 1, f.branchTarget};
      } else {
        f.succ = {i + 1};
      }
    }
  }

  // Loops are the instruction ranges [target, source] of backward jumps (merged per target). Litmus code is
  // structured; overlapping loops and jumps into a loop body are refused rather than unrolled wrongly.
  void findLoops() {
    for (int i = 0; i < size(); ++i)
      for (int s : flow_[static_cast<std::size_t>(i)].succ) {
        if (s > i) continue;
        auto it = std::find_if(out_.loops.begin(), out_.loops.end(), [&](const auto& l) { return l.header == s; });
        if (it == out_.loops.end()) {
          out_.loops.push_back({s, i, {}, thread_.code[static_cast<std::size_t>(i)].pos});
        } else if (i > it->last) {
          it->last = i;
          it->pos = thread_.code[static_cast<std::size_t>(i)].pos;
        }
      }
    for (const auto& a : out_.loops)
      for (const auto& b : out_.loops)
        if (a.header < b.header && b.header <= a.last && a.last < b.last)
          throw UserError(b.pos, "overlapping loops are not supported");
    for (int i = 0; i < size(); ++i)
      for (int s : flow_[static_cast<std::size_t>(i)].succ)
        for (const auto& l : out_.loops)
          if (s > l.header && s <= l.last && (i < l.header || i > l.last))
            throw UserError(thread_.code[static_cast<std::size_t>(i)].pos,
                            "jump into the middle of a loop body (its first instruction is at line " +
                                std::to_string(thread_.code[static_cast<std::size_t>(l.header)].pos.line) + ")");
  }

  std::vector<int> uses(const Instruction& in) {
    std::vector<int> out;
    const std::size_t firstSource = in.op == Opcode::Ld || in.op == Opcode::Atom || in.op == Opcode::Local ||
                                            in.op == Opcode::Setp
                                        ? 1
                                        : 0;
    for (std::size_t k = firstSource; k < in.operands.size(); ++k)
      if (in.operands[k].kind == Operand::Kind::Register) out.push_back(regId(in.operands[k].name));
    return out;
  }

  std::optional<int> def(const Instruction& in) {
    if ((in.op == Opcode::Ld || in.op == Opcode::Atom || in.op == Opcode::Local || in.op == Opcode::Setp) &&
        !in.operands.empty() && in.operands[0].kind == Operand::Kind::Register)
      return regId(in.operands[0].name);
    return std::nullopt;
  }

  // Backward liveness on the source CFG; registers the condition observes are live at the end.
  void computeLiveness() {
    std::set<int> atEnd;
    for (const auto& [t, name] : observedRegisters(program_))
      if (t == thread_.index) atEnd.insert(regId(name));
    std::vector<std::set<int>> liveIn(thread_.code.size());
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = size() - 1; i >= 0; --i) {
        const auto& in = thread_.code[static_cast<std::size_t>(i)];
        std::set<int> live;
        for (int s : flow_[static_cast<std::size_t>(i)].succ) {
          const auto& src = s >= size() ? atEnd : liveIn[static_cast<std::size_t>(s)];
          live.insert(src.begin(), src.end());
        }
        if (auto d = def(in)) live.erase(*d);
        for (int u : uses(in)) live.insert(u);
        if (live != liveIn[static_cast<std::size_t>(i)]) {
          liveIn[static_cast<std::size_t>(i)] = std::move(live);
          changed = true;
        }
      }
    }
    for (auto& l : out_.loops) {
      const auto& live = liveIn[static_cast<std::size_t>(l.header)];
      l.liveAtHeader.assign(live.begin(), live.end());
    }
  }

  bool inLoop(std::size_t loop, int instr) const {
    return out_.loops[loop].header <= instr && instr <= out_.loops[loop].last;
  }

  // The key reached by going from instruction `from` (iteration counts `counts`) to `to`, or kBound / kEnd.
  std::pair<std::optional<Key>, Edge> step(int from, const Counts& counts, int to) {
    if (to >= size()) return {std::nullopt, Edge{Edge::kEnd, -1}};
    Counts next(out_.loops.size(), -1);
    int backEdgeOf = -1;
    for (std::size_t l = 0; l < out_.loops.size(); ++l) {
      if (!inLoop(l, to)) continue;
      if (!inLoop(l, from)) {
        next[l] = 0;
      } else if (to == out_.loops[l].header && to <= from) {
        if (counts[l] + 1 >= bound_) return {std::nullopt, Edge{Edge::kBound, static_cast<int>(l)}};
        next[l] = counts[l] + 1;
        backEdgeOf = static_cast<int>(l);
      } else {
        next[l] = counts[l];
      }
    }
    return {Key{to, next}, Edge{0, backEdgeOf}};
  }

  int index(const Key& k) {
    auto [it, inserted] = keyIndex_.emplace(k, static_cast<int>(discovered_.size()));
    if (inserted) {
      discovered_.push_back({k, {}, {}});
      work_.push_back(it->second);
    }
    return it->second;
  }

  Edge edgeTo(int from, const Counts& counts, int to) {
    auto [key, edge] = step(from, counts, to);
    if (key) edge.target = index(*key);
    return edge;
  }

  void discover() {
    Counts start(out_.loops.size(), -1);
    for (std::size_t l = 0; l < out_.loops.size(); ++l)
      if (inLoop(l, 0)) start[l] = 0;
    index(Key{0, start});
    while (!work_.empty()) {
      const int d = work_.front();
      work_.pop_front();
      const Key key = discovered_[static_cast<std::size_t>(d)].key;
      const auto& f = flow_[static_cast<std::size_t>(key.instr)];
      Edge next = edgeTo(key.instr, key.counts, f.succ[0]);
      Edge taken = f.branchTarget >= 0 ? edgeTo(key.instr, key.counts, f.branchTarget) : Edge{};
      discovered_[static_cast<std::size_t>(d)].next = next;
      discovered_[static_cast<std::size_t>(d)].taken = taken;
    }
  }

  // Nodes in a topological order (Kahn), so event ids increase along every path: po is id order.
  std::vector<int> topologicalOrder() const {
    std::vector<int> indegree(discovered_.size(), 0);
    for (const auto& d : discovered_)
      for (const Edge* e : {&d.next, &d.taken})
        if (e->target >= 0) ++indegree[static_cast<std::size_t>(e->target)];
    std::deque<int> ready{0};
    std::vector<int> order;
    while (!ready.empty()) {
      const int d = ready.front();
      ready.pop_front();
      order.push_back(d);
      for (const Edge* e : {&discovered_[static_cast<std::size_t>(d)].next, &discovered_[static_cast<std::size_t>(d)].taken})
        if (e->target >= 0 && --indegree[static_cast<std::size_t>(e->target)] == 0) ready.push_back(e->target);
    }
    return order;
  }

  void emitNodes() {
    const auto order = topologicalOrder();
    std::vector<int> position(discovered_.size());
    for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    auto renumber = [&](Edge e) {
      if (e.target >= 0) e.target = position[static_cast<std::size_t>(e.target)];
      return e;
    };
    for (int d : order) {
      const auto& disc = discovered_[static_cast<std::size_t>(d)];
      model::Node node;
      node.instr = disc.key.instr;
      node.iteration = disc.key.counts;
      node.next = renumber(disc.next);
      node.taken = renumber(disc.taken);
      for (std::size_t l = 0; l < out_.loops.size(); ++l)
        if (out_.loops[l].header == node.instr) node.startsIterationOf = static_cast<int>(l);
      out_.nodes.push_back(std::move(node));
      emitInstruction(out_.nodes.back(), static_cast<int>(out_.nodes.size() - 1));
    }
  }

  ValuePtr operandValue(const Operand& op) {
    return op.kind == Operand::Kind::Register ? value::reg(regId(op.name)) : value::constant(op.value);
  }

  const Address& address(const Operand& op) const { return addresses_.at(op.name); }

  int addEvent(model::Node& node, int nodeIndex, TagSet tags, const Instruction& in, const Address* a) {
    Event e;
    e.tags = tags;
    e.thread = thread_.index;
    e.node = nodeIndex;
    if (a) {
      e.vaddr = a->vaddr;
      e.paddr = a->paddr;
    }
    e.label = in.text;
    e.pos = in.pos;
    graph_.events.push_back(std::move(e));
    node.events.push_back(static_cast<int>(graph_.events.size() - 1));
    return node.events.back();
  }

  void emitInstruction(model::Node& node, int nodeIndex) {
    const Instruction& in = thread_.code[static_cast<std::size_t>(node.instr)];
    const auto& ops = in.operands;
    switch (in.op) {
      case Opcode::Ld: {
        const Address& a = address(ops[1]);
        const int r = addEvent(node, nodeIndex, accessTags(in, a, false) | tagBit(Tag::R), in, &a);
        node.assigns.emplace_back(regId(ops[0].name), value::read(r));
        break;
      }
      case Opcode::St: {
        const Address& a = address(ops[0]);
        const int w = addEvent(node, nodeIndex, accessTags(in, a, false) | tagBit(Tag::W), in, &a);
        graph_.events[static_cast<std::size_t>(w)].value = operandValue(ops[1]);
        break;
      }
      case Opcode::Atom:
      case Opcode::Red: {
        const bool red = in.op == Opcode::Red;
        const Operand& addrOp = red ? ops[0] : ops[1];
        const Address& a = address(addrOp);
        const TagSet tags = accessTags(in, a, true);
        const int r = addEvent(node, nodeIndex, tags | tagBit(Tag::R) | (red ? tagBit(Tag::RED) : TagSet()), in, &a);
        const int w = addEvent(node, nodeIndex, tags | tagBit(Tag::W), in, &a);
        const ValuePtr old = value::read(r);
        const ValuePtr b = operandValue(red ? ops[1] : ops[2]);
        const ValuePtr c = !red && ops.size() > 3 ? operandValue(ops[3]) : nullptr;
        auto& we = graph_.events[static_cast<std::size_t>(w)];
        we.value = atomicResult(in.atomOp, old, b, c);
        // A failed compare-and-swap writes nothing: its write half exists only when the compare succeeds.
        if (in.atomOp == AtomOp::Cas) we.existsIf = value::apply(ValueOp::Eq, {old, b});
        if (!red) node.assigns.emplace_back(regId(ops[0].name), old);
        break;
      }
      case Opcode::Fence: addEvent(node, nodeIndex, fenceTags(in), in, nullptr); break;
      case Opcode::FenceProxy:
        addEvent(node, nodeIndex,
                 tagBit(Tag::PF) | (in.aliasFence ? tagBit(Tag::ALIAS) : tagBit(model::proxyTag(in.proxy))), in,
                 nullptr);
        break;
      case Opcode::BarSync:
      case Opcode::BarArrive: {
        // bar.sync = arrive half then wait half; bar.arrive = arrive half only [§2.8].
        std::vector<Tag> halves{Tag::BA};
        if (in.op == Opcode::BarSync) halves.push_back(Tag::BW);
        for (Tag h : halves) {
          const int e = addEvent(node, nodeIndex, tagBit(h) | tagBit(Tag::GEN), in, nullptr);
          auto& ev = graph_.events[static_cast<std::size_t>(e)];
          ev.barrierId = operandValue(ops.at(0));
          if (ops.size() > 1) ev.barrierCount = operandValue(ops[1]);
        }
        break;
      }
      case Opcode::Local: {
        std::vector<ValuePtr> args;
        for (std::size_t k = 1; k < ops.size(); ++k) args.push_back(operandValue(ops[k]));
        node.assigns.emplace_back(regId(ops[0].name),
                                  in.localOp == LocalOp::Mov ? args.at(0) : value::apply(localOp(in.localOp), args));
        break;
      }
      case Opcode::Setp:
        node.assigns.emplace_back(regId(ops[0].name),
                                  value::apply(compareOp(in.cmp), {operandValue(ops[1]), operandValue(ops[2])}));
        break;
      case Opcode::Branch:
        if (in.predicated) {
          const ValuePtr p = operandValue(ops[0]);
          node.branch = in.negatePredicate ? value::apply(ValueOp::LNot, {p}) : value::apply(ValueOp::Ne, {p, value::constant(0)});
        } else {
          node.branch = value::apply(compareOp(in.cmp), {operandValue(ops[0]), operandValue(ops[1])});
        }
        break;
      case Opcode::Goto:
      case Opcode::Label: break;
    }
  }

  const Program& program_;
  const Thread& thread_;
  const std::map<std::string, Address>& addresses_;
  int bound_;
  EventGraph& graph_;
  model::ThreadGraph& out_;
  std::vector<Flow> flow_;
  std::map<Key, int> keyIndex_;
  std::vector<Discovered> discovered_;
  std::deque<int> work_;
};

// Physical locations and virtual addresses from the declarations [§1.2]: an `@ generic aliases` declaration
// is a new virtual address of the same physical location; `@ <other proxy> aliases` names the same virtual
// address for access through another proxy.
std::map<std::string, Address> layOutMemory(const Program& program, EventGraph& g) {
  std::map<std::string, Address> addresses;
  std::vector<int> primaryVaddr;
  for (const auto& loc : program.locations) {
    const bool shared = isShared(loc.space);
    if (loc.aliasProxy) {
      const Address target = addresses.at(loc.aliasOf);
      if (*loc.aliasProxy == model::Proxy::Generic) {
        g.virtualNames.push_back(loc.name);
        addresses[loc.name] = {static_cast<int>(g.virtualNames.size() - 1), target.paddr, target.shared};
      } else {
        addresses[loc.name] = target;
      }
    } else {
      g.virtualNames.push_back(loc.name);
      g.physicalNames.push_back(loc.name);
      g.initValues.push_back(loc.init);
      primaryVaddr.push_back(static_cast<int>(g.virtualNames.size() - 1));
      addresses[loc.name] = {primaryVaddr.back(), static_cast<int>(g.physicalNames.size() - 1), shared};
    }
    g.locationNames.emplace_back(loc.name, addresses[loc.name].paddr);
  }
  for (std::size_t p = 0; p < g.physicalNames.size(); ++p) {
    Event init;
    const bool shared = addresses.at(g.physicalNames[p]).shared;
    init.tags = tagBit(Tag::W) | tagBit(Tag::I) | tagBit(Tag::GEN) | tagBit(shared ? Tag::SHARED : Tag::GLOBAL);
    init.vaddr = primaryVaddr[p];
    init.paddr = static_cast<int>(p);
    init.value = value::constant(g.initValues[p]);
    init.label = "init " + g.physicalNames[p] + " = " + std::to_string(g.initValues[p]);
    g.events.push_back(std::move(init));
  }
  return addresses;
}

// Dense scope-tree numbering: a CTA is identified by (gpu, cta); its cluster by (gpu, cluster) when the
// placement names one, otherwise the CTA is a cluster of its own [§1.1].
void placeThreads(const Program& program, EventGraph& g) {
  std::map<std::pair<int, int>, int> ctas;
  std::map<std::pair<int, int>, int> namedClusters;
  std::map<int, int> gpus;
  std::map<int, int> clusterOfCta;
  int clusters = 0;
  for (const auto& t : program.threads) {
    auto& tg = g.threads[static_cast<std::size_t>(t.index)];
    tg.gpu = gpus.emplace(t.gpu, static_cast<int>(gpus.size())).first->second;
    const auto [ctaIt, newCta] = ctas.emplace(std::pair{t.gpu, t.cta}, static_cast<int>(ctas.size()));
    tg.cta = ctaIt->second;
    int cluster;
    if (t.cluster) {
      auto [it, inserted] = namedClusters.emplace(std::pair{t.gpu, *t.cluster}, clusters);
      if (inserted) ++clusters;
      cluster = it->second;
    } else {
      cluster = newCta ? clusters++ : clusterOfCta.at(tg.cta);
    }
    auto [it, inserted] = clusterOfCta.emplace(tg.cta, cluster);
    if (!inserted && it->second != cluster)
      throw UserError(t.pos, "CTA " + std::to_string(t.cta) + " of gpu " + std::to_string(t.gpu) +
                                 " is placed in two different clusters");
    tg.cluster = cluster;
  }
}

}  // namespace

std::set<std::pair<int, std::string>> observedRegisters(const Program& program) {
  std::set<std::pair<int, std::string>> out;
  auto add = [&](const CondValue& v) {
    if (v.kind == CondValue::Kind::Register) out.emplace(v.thread, v.name);
  };
  for (const auto& v : program.observed) add(v);
  std::function<void(const CondPtr&)> walk = [&](const CondPtr& c) {
    if (!c) return;
    add(c->lhs);
    add(c->rhs);
    walk(c->a);
    walk(c->b);
  };
  walk(program.condition.expr);
  return out;
}

model::EventGraph unroll(const Program& program, const UnrollOptions& options) {
  EventGraph g;
  g.name = program.name;
  g.unrollBound = options.bound;
  const auto addresses = layOutMemory(program, g);
  g.threads.resize(program.threads.size());
  placeThreads(program, g);
  for (const auto& t : program.threads) {
    auto& tg = g.threads[static_cast<std::size_t>(t.index)];
    tg.name = t.name;
    ThreadUnroller(program, t, addresses, options.bound, g, tg).run();
  }
  return g;
}

}  // namespace ptxmm::frontend
