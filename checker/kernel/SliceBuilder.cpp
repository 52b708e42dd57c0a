// Closure and canonical emission of slices (SliceBuilder.hpp).
#include "checker/kernel/SliceBuilder.hpp"

#include <algorithm>

namespace ptxmm::checker::kernel {
namespace {

using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using model::Tag;

bool isControl(Opcode op) {
  return op == Opcode::Branch || op == Opcode::Goto || op == Opcode::Label;
}

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

// Every field of an instruction that gives it meaning, so two slices with the same text mean the same program
// (not its text, position or origin, which name the source). A field added to Instruction must be added here:
// the size check below fails until it is.
void serialize(const Instruction& in, std::string& out) {
  static_assert(sizeof(Instruction) == 152, "a new Instruction field must be part of the slice key (serialize)");
  const int flags[] = {static_cast<int>(in.op), static_cast<int>(in.sem), in.scope ? static_cast<int>(*in.scope) : -1,
                       static_cast<int>(in.proxy), in.aliasFence, static_cast<int>(in.space), static_cast<int>(in.atomOp),
                       static_cast<int>(in.localOp), static_cast<int>(in.cmp), in.predicated, in.negatePredicate,
                       static_cast<int>(in.fenceKind), in.uniDirectional, static_cast<int>(in.bulk), in.reduce, in.sink,
                       in.drop, in.expectTx, in.noComplete, in.parity, in.tryWait, in.bulkGroup, in.readOnly,
                       in.waitAll, in.noinc, in.afterSync, in.waitSt, in.valueBits, in.valueUnsigned, in.opaqueValue,
                       in.dat3mBarrier, in.aligned};
  for (int f : flags) out += std::to_string(f) + ",";
  for (const Operand& o : in.operands)
    out += " " + std::to_string(static_cast<int>(o.kind)) + ":" + (o.kind == Operand::Kind::Immediate && o.name.empty() ? std::to_string(o.value) : o.name);
  out += "\n";
}

std::string serialize(const frontend::Program& p) {
  std::string out;
  for (const auto& l : p.locations)
    out += l.name + "=" + std::to_string(l.init) + " k" + std::to_string(static_cast<int>(l.kind)) + " s" +
           std::to_string(static_cast<int>(l.space)) + " o" + std::to_string(l.ownerCta.value_or(-1)) + " z" +
           std::to_string(l.size) + "\n";
  for (const auto& t : p.threads) {
    out += "thread cta " + std::to_string(t.cta) + " cluster " + std::to_string(t.cluster.value_or(-1)) + " warp " +
           std::to_string(t.warp.value_or(-1)) + "\n";
    for (const auto& in : t.code) serialize(in, out);
  }
  return out;
}

// Canonical names in order of first use.
struct Namer {
  std::map<std::string, std::string> names;
  std::string prefix;
  const std::string& operator()(const std::string& original) {
    auto it = names.find(original);
    if (it == names.end()) it = names.emplace(original, prefix + std::to_string(names.size())).first;
    return it->second;
  }
};

struct Numberer {
  std::map<int, int> numbers;
  int operator()(int original) { return numbers.emplace(original, static_cast<int>(numbers.size())).first->second; }
};

}  // namespace

bool performsEvents(const Instruction& in) {
  return !isControl(in.op) && in.op != Opcode::Local && in.op != Opcode::Setp;
}

struct SliceBuilder::State {
  SliceLimits limits;
  std::vector<int> order;                               // kernel threads, in the order the closure reached them
  std::map<int, std::set<int>> kept;                    // kernel thread -> kept instructions
  std::map<int, std::map<int, std::int64_t>> replaced;  // kernel thread -> instruction -> forced value it defines
  std::vector<std::pair<int, int>> queue;
  std::size_t memoryInstructions = 0;
  bool opaque = false;
  std::map<int, std::vector<int>> reads, writes;  // physical location -> its kept reads / writes
  std::map<int, std::set<std::string>> needed;     // kernel thread -> registers its kept part reads
  std::set<int> observed;                          // physical locations whose final values are asked for
  std::set<int> relevant;                          // kept write events whose stored values matter
};

void SliceBuilder::orderBetween(State& s, int a, int b) {
  if (!order_) return;
  for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}})
    for (int e : order_->between(x, y))
      if (!phases_.unreachable(e)) keep(s, k_.event(e).thread, k_.instructionIndex(e));
}

SliceBuilder::SliceBuilder(const KernelGraph& kernel, const BarrierPhases& phases, KernelValues& values, MayOrder* order)
    : k_(kernel), phases_(phases), values_(values), order_(order) {
  const auto& g = k_.graph();
  nodesOf_.resize(g.threads.size());
  barrierIds_.resize(g.threads.size());
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t n = 0; n < g.threads[t].nodes.size(); ++n) {
      const model::Node& node = g.threads[t].nodes[n];
      nodesOf_[t][node.instr].push_back(static_cast<int>(n));
      for (int e : node.events) {
        const model::Event& ev = g.events[static_cast<std::size_t>(e)];
        if (ev.is(Tag::BA) && !ev.is(Tag::WBAR) && ev.barrier && ev.barrier->id->op == model::ValueOp::Const)
          barrierIds_[t].insert(ev.barrier->id->constant);
      }
    }
}

bool SliceBuilder::keep(State& s, int thread, int instr) {
  auto [it, newThread] = s.kept.try_emplace(thread);
  if (!it->second.insert(instr).second) return false;
  ++s.memoryInstructions;
  s.queue.emplace_back(thread, instr);
  if (newThread) {
    s.order.push_back(thread);
    // (iv) every barrier of a kept thread, and its async-group commits: a commit performs no event, yet it puts
    // the thread's earlier copies in the group that a kept wait_group retires [§4.6, §4.7].
    const auto& code = k_.kernel().program.threads[static_cast<std::size_t>(thread)].code;
    for (std::size_t i = 0; i < code.size(); ++i)
      if (code[i].op == Opcode::BarSync || code[i].op == Opcode::BarArrive || code[i].op == Opcode::BarWarpSync ||
          code[i].op == Opcode::ClusterArrive || code[i].op == Opcode::ClusterWait || code[i].op == Opcode::CpAsyncCommit)
        keep(s, thread, static_cast<int>(i));
  }
  return true;
}

bool SliceBuilder::closeEvents(State& s, std::string& why) {
  const auto& g = k_.graph();
  while (!s.queue.empty()) {
    const auto [t, i] = s.queue.back();
    s.queue.pop_back();
    if (s.order.size() > s.limits.maxThreads || s.memoryInstructions > s.limits.maxMemoryInstructions) {
      why = "its slice needs more than " + std::to_string(s.limits.maxThreads) + " threads or " +
            std::to_string(s.limits.maxMemoryInstructions) + " memory instructions";
      return false;
    }
    for (int n : nodesOf_[static_cast<std::size_t>(t)][i])
      for (int e : g.threads[static_cast<std::size_t>(t)].nodes[static_cast<std::size_t>(n)].events) {
        const model::Event& ev = g.events[static_cast<std::size_t>(e)];
        if (phases_.unreachable(e)) continue;
        if ((ev.is(Tag::BA) || ev.is(Tag::BW)) && !phases_.isStatic(e)) {
          why = "its slice needs the barrier at " + lineOf(k_.position(e)) + ", whose generations are not static";
          return false;
        }
        // The cluster barrier's location is not memory: its arrivals are kept as barriers are.
        if (!(ev.is(Tag::R) || ev.is(Tag::W)) || ev.is(Tag::CB) || ev.paddr < 0) continue;
        // (iii) what may order this access with the kept accesses of its location in other threads, so the slice
        // keeps the synchronisation that decides which writes a kept read can see — and, for two writes, which is
        // coherence-later (causality orders coherence, §2.12: a thread's generic store, its proxy fence and a
        // barrier before another thread's bulk copy over it decide that the copy's value is the one read after
        // the copy's wait); in its own thread too when one of them is asynchronous (program order does not order
        // it: a proxy fence, a barrier or a wait does).
        const auto pairWith = [&](const std::vector<int>& others) {
          for (int o : std::vector<int>(others))
            if (k_.event(o).thread != ev.thread || ev.is(Tag::AS) || k_.event(o).is(Tag::AS)) orderBetween(s, o, e);
        };
        if (ev.is(Tag::R)) {
          pairWith(s.writes[ev.paddr]);
        } else {
          pairWith(s.reads[ev.paddr]);
          pairWith(s.writes[ev.paddr]);
        }
        (ev.is(Tag::R) ? s.reads : s.writes)[ev.paddr].push_back(e);
        if (!ev.is(Tag::R)) continue;
        // (i) reads-from.
        if (values_.mixed(ev.paddr)) {
          why = "the access at " + lineOf(k_.position(e)) + " overlaps accesses of other sizes (mixed-size accesses are "
                "not supported by the engines yet)";
          return false;
        }
        const int forced = values_.mustReadFrom(e);
        for (int w : values_.writesOf(ev.paddr)) {
          if (k_.event(w).thread < 0 || (forced >= 0 && w != forced)) continue;
          keep(s, k_.event(w).thread, k_.instructionIndex(w));
        }
      }
  }
  return true;
}

int SliceBuilder::cutOf(int thread, const std::set<int>& kept) const {
  int cut = kept.empty() ? 0 : *kept.rbegin() + 1;
  for (bool grown = true; grown;) {
    grown = false;
    for (const auto& loop : k_.graph().threads[static_cast<std::size_t>(thread)].loops)
      if (loop.header < cut && loop.last >= cut) {
        cut = loop.last + 1;
        grown = true;
      }
  }
  return cut;
}

// The operand holding the value a write instruction stores (its compare-and-swap's new value), or -1.
int valueOperand(const Instruction& in) {
  switch (in.op) {
    case Opcode::St:
    case Opcode::Red: return 1;
    case Opcode::Atom: return in.atomOp == frontend::AtomOp::Cas ? 3 : 2;
    default: return -1;
  }
}

// Whether a kept write instruction's stored value matters: some kept read whose value matters may read it.
bool SliceBuilder::relevantWrite(const State& s, int thread, int instr) const {
  for (int n : nodesOf_[static_cast<std::size_t>(thread)].at(instr))
    for (int e : k_.graph().threads[static_cast<std::size_t>(thread)].nodes[static_cast<std::size_t>(n)].events)
      if (s.relevant.count(e)) return true;
  return false;
}

// (ii) The registers a kept thread needs before its cut: what its branches test, the operands of its kept
// instructions other than stored values, and the stored values of relevant writes — closed through register
// arithmetic. A write is relevant when a kept read whose value is needed (or an observed final value) may read it;
// the other writes' values cannot change which events happen, so emit() stores 0 there, which makes slices
// that differ only in data the same text. A dropped instruction defining a needed register is replaced by its
// forced value, or kept. Returns whether something new was kept.
bool SliceBuilder::closeRegisters(State& s, std::string& why) {
  const auto& g = k_.graph();
  // Relevance: to a fixpoint over the kept reads and writes.
  s.relevant.clear();
  for (const auto& [paddr, writes] : s.writes)
    if (s.observed.count(paddr)) s.relevant.insert(writes.begin(), writes.end());
  for (bool grown = true; grown;) {
    grown = false;
    for (int t : s.order) neededRegisters(s, t);
    for (const auto& [paddr, reads] : s.reads)
      for (int r : reads) {
        const model::Event& ev = g.events[static_cast<std::size_t>(r)];
        const Instruction& in = k_.kernel().program.threads[static_cast<std::size_t>(ev.thread)].code[static_cast<std::size_t>(k_.instructionIndex(r))];
        const bool needed = (frontend::writesFirstOperand(in) && s.needed[ev.thread].count(in.operands.at(0).name)) ||
                            relevantWrite(s, ev.thread, k_.instructionIndex(r));  // an RMW's old value feeds its write
        if (!needed) continue;
        for (int w : s.writes[paddr]) grown = s.relevant.insert(w).second || grown;
      }
  }
  bool grew = false;
  for (int t : std::vector<int>(s.order)) {
    const auto& code = k_.kernel().program.threads[static_cast<std::size_t>(t)].code;
    const std::set<int> kept = s.kept[t];
    const int cut = cutOf(t, kept);
    const std::set<std::string>& needed = s.needed[t];
    for (int i : kept) s.opaque = s.opaque || (code[static_cast<std::size_t>(i)].opaqueValue && relevantWrite(s, t, i));
    for (int i = cut - 1; i >= 0; --i) {
      const Instruction& in = code[static_cast<std::size_t>(i)];
      if (!frontend::writesFirstOperand(in) || !needed.count(in.operands.at(0).name) || kept.count(i)) continue;
      if (!performsEvents(in)) {
        s.opaque = s.opaque || (in.op == Opcode::Local && in.localOp == frontend::LocalOp::Opaque);
        continue;
      }
      if (s.replaced[t].count(i)) continue;
      const auto& nodes = nodesOf_[static_cast<std::size_t>(t)].at(i);
      std::optional<std::int64_t> forced;
      if (nodes.size() == 1)
        for (int e : g.threads[static_cast<std::size_t>(t)].nodes[static_cast<std::size_t>(nodes[0])].events)
          if (k_.event(e).is(Tag::R) && !phases_.unreachable(e)) {
            forced = values_.readValue(e);
            break;
          }
      if (forced) {
        s.replaced[t][i] = *forced;
      } else {
        keep(s, t, i);
        grew = true;
      }
    }
  }
  (void)why;
  return grew;
}

// The registers thread t's kept part reads, closed backwards through the register arithmetic before its cut.
void SliceBuilder::neededRegisters(State& s, int t) const {
  const auto& code = k_.kernel().program.threads[static_cast<std::size_t>(t)].code;
  const std::set<int>& kept = s.kept.at(t);
  const int cut = cutOf(t, kept);
  std::set<std::string>& needed = s.needed[t];
  needed.clear();
  auto use = [&](const Instruction& in, int skip) {
    for (std::size_t k = frontend::writesFirstOperand(in) ? 1 : 0; k < in.operands.size(); ++k)
      if (in.operands[k].kind == Operand::Kind::Register && static_cast<int>(k) != skip) needed.insert(in.operands[k].name);
  };
  for (int i : kept) {
    const Instruction& in = code[static_cast<std::size_t>(i)];
    use(in, relevantWrite(s, t, i) ? -1 : valueOperand(in));
  }
  for (int i = 0; i < cut; ++i)
    if (code[static_cast<std::size_t>(i)].op == Opcode::Branch) use(code[static_cast<std::size_t>(i)], -1);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = cut - 1; i >= 0; --i) {
      const Instruction& in = code[static_cast<std::size_t>(i)];
      if (performsEvents(in) || !frontend::writesFirstOperand(in) || !needed.count(in.operands.at(0).name)) continue;
      const std::size_t before = needed.size();
      use(in, -1);
      changed = changed || needed.size() != before;
    }
  }
}

std::optional<Slice> SliceBuilder::build(const std::vector<int>& seeds, const std::vector<std::pair<int, int>>& between,
                                         const std::vector<int>& observed, const SliceLimits& limits, std::string& why) {
  State s;
  s.limits = limits;
  for (int loc : observed) s.observed.insert(k_.graph().locationNames.at(static_cast<std::size_t>(loc)).second);
  for (int e : seeds) keep(s, k_.event(e).thread, k_.instructionIndex(e));
  for (const auto& [a, b] : between) orderBetween(s, a, b);
  do {
    if (!closeEvents(s, why)) return std::nullopt;
  } while (closeRegisters(s, why));
  return emit(s);
}

Slice SliceBuilder::emit(const State& s) const {
  const auto& kp = k_.kernel();
  Slice out;
  frontend::Program& p = out.program;
  p.arch = "PTX";
  p.name = "slice";
  p.threadsAreWarps = false;  // a barrier arrival of a slice thread counts one thread, as in the kernel
  p.file = kp.file;
  auto truth = std::make_shared<frontend::CondExpr>();
  truth->kind = frontend::CondExpr::Kind::True;
  p.condition.quantifier = frontend::Condition::Quantifier::Exists;
  p.condition.expr = truth;
  p.condition.text = "true";
  Numberer ctas, clusters, warps;
  Namer locations{{}, "x"};
  std::map<std::string, int> locationIndex;
  for (const auto& l : kp.program.locations) locationIndex.emplace(l.name, static_cast<int>(&l - kp.program.locations.data()));
  // A bulk copy lists its elements ([dst], [src] pairs before its size). The pairs no other kept instruction
  // names and no one observes change nothing the slice decides: they become one `rest` pair of their total size
  // (locations of their own), so the copy still moves, and completes, all of its bytes.
  std::map<std::string, int> uses;
  for (int t : s.order)
    for (int i : s.kept.at(t))
      for (const Operand& o : k_.kernel().program.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)].operands)
        if (o.kind == Operand::Kind::Location) ++uses[o.name];
  auto alone = [&](const std::string& name) {
    const int paddr = k_.graph().locationNames.at(static_cast<std::size_t>(locationIndex.at(name))).second;
    return uses[name] == 1 && !s.observed.count(paddr);
  };
  std::map<std::string, frontend::Location> rests;  // slice name -> the location (owner not yet renumbered)
  auto trimCopy = [&](Instruction& c, const std::string& tag) {
    std::vector<Operand> kept;
    std::size_t k = 0;
    std::int64_t dropped = 0;
    const Operand* first = nullptr;
    const bool pieces = c.operands.size() > 3 && c.operands[2].kind == Operand::Kind::Location;
    for (; k + 1 < c.operands.size() && c.operands[k].kind == Operand::Kind::Location &&
           c.operands[k + 1].kind == Operand::Kind::Location;
         k += 2) {
      const Operand &d = c.operands[k], &r = c.operands[k + 1];
      if (pieces && alone(d.name) && alone(r.name)) {
        dropped += kp.program.locations[static_cast<std::size_t>(locationIndex.at(d.name))].size;
        if (!first) first = &c.operands[k];
        continue;
      }
      kept.push_back(d);
      kept.push_back(r);
    }
    if (!dropped) return;
    for (int side = 0; side < 2; ++side) {
      frontend::Location l = kp.program.locations[static_cast<std::size_t>(locationIndex.at(first[side].name))];
      l.name = locations(tag + (side ? "src" : "dst"));
      l.size = static_cast<int>(dropped);
      l.init = 0;
      rests.emplace(l.name, l);
      kept.push_back(Operand{Operand::Kind::Location, l.name, 0, first[side].pos});
    }
    kept.insert(kept.end(), c.operands.begin() + static_cast<std::ptrdiff_t>(k), c.operands.end());
    c.operands = std::move(kept);
  };
  for (int t : s.order) {
    const auto& where = kp.threads[static_cast<std::size_t>(t)];
    const frontend::Thread& source = kp.program.threads[static_cast<std::size_t>(t)];
    frontend::Thread th;
    th.index = static_cast<int>(p.threads.size());
    th.name = "P" + std::to_string(th.index);
    th.cta = ctas(where.cta);
    th.cluster = clusters(where.cluster);
    th.warp = warps(where.cta * 64 + where.warp);
    th.pos = source.pos;
    const std::set<int>& kept = s.kept.at(t);
    const auto replacedIt = s.replaced.find(t);
    const int cut = cutOf(t, kept);
    std::map<std::string, int> labelAt;
    for (int i = 0; i < static_cast<int>(source.code.size()); ++i)
      if (source.code[static_cast<std::size_t>(i)].op == Opcode::Label) labelAt[source.code[static_cast<std::size_t>(i)].operands.at(0).name] = i;
    Namer registers{{}, "r"}, labels{{}, "L"};
    bool needEnd = false;
    std::vector<int> instrMap;
    auto rename = [&](Instruction& in) {
      for (Operand& o : in.operands) {
        if (o.kind == Operand::Kind::Register) o.name = registers(o.name);
        if (o.kind == Operand::Kind::Location && !rests.count(o.name)) {
          out.locationNames.emplace(locationIndex.at(o.name), locations(o.name));
          o.name = locations(o.name);
        }
        if (o.kind == Operand::Kind::Label) {
          const auto at = labelAt.find(o.name);
          if (in.op != Opcode::Label && (at == labelAt.end() || at->second >= cut)) {
            o.name = "Lend";
            needEnd = true;
          } else {
            o.name = labels(o.name);
          }
        }
      }
    };
    for (int i = 0; i < cut; ++i) {
      const Instruction& in = source.code[static_cast<std::size_t>(i)];
      Instruction c = in;
      // Register arithmetic nothing kept reads is dead.
      if ((in.op == Opcode::Local || in.op == Opcode::Setp) && !s.needed.at(t).count(in.operands.at(0).name)) continue;
      if (performsEvents(in) && !kept.count(i)) {
        if (replacedIt == s.replaced.end() || !replacedIt->second.count(i)) continue;
        c = Instruction{};
        c.op = Opcode::Local;
        c.localOp = frontend::LocalOp::Mov;
        c.pos = in.pos;
        c.text = "mov (forced value of: " + in.text + ")";
        c.operands = {Operand{Operand::Kind::Register, in.operands.at(0).name, 0, in.pos},
                      Operand{Operand::Kind::Immediate, "", replacedIt->second.at(i), in.pos}};
      }
      if (kept.count(i) && valueOperand(c) >= 0 && !relevantWrite(s, t, i))
        c.operands.at(static_cast<std::size_t>(valueOperand(c))) = Operand{Operand::Kind::Immediate, "", 0, in.pos};
      // (iv) A counted barrier counts the kept threads of its CTA that arrive at it: a slice's threads are
      // threads, as the kernel's are (threadsAreWarps below). Kept barriers are static (closeEvents), so their
      // id and count are immediates.
      if ((c.op == Opcode::BarSync || c.op == Opcode::BarArrive) && c.operands.size() > 1 &&
          c.operands[0].kind == Operand::Kind::Immediate && c.operands[1].kind == Operand::Kind::Immediate) {
        std::int64_t arriving = 0;
        for (int u : s.order)
          if (kp.threads[static_cast<std::size_t>(u)].cta == where.cta && barrierIds_[static_cast<std::size_t>(u)].count(c.operands[0].value))
            ++arriving;
        c.operands[1].value = arriving;
      }
      if (c.op == Opcode::BulkCopy && kept.count(i)) trimCopy(c, "\n" + std::to_string(t) + ":" + std::to_string(i));
      rename(c);
      th.code.push_back(std::move(c));
      instrMap.push_back(i);
    }
    if (needEnd) {
      Instruction end;
      end.op = Opcode::Label;
      end.text = "Lend:";
      end.operands = {Operand{Operand::Kind::Label, "Lend", 0, {}}};
      th.code.push_back(std::move(end));
      instrMap.push_back(-1);
    }
    p.threads.push_back(std::move(th));
    out.threads.push_back(t);
    out.instructions.push_back(std::move(instrMap));
  }
  // Locations in order of first use, with their owners renumbered like the threads' CTAs.
  std::vector<std::pair<std::string, int>> used;
  for (const auto& [loc, name] : out.locationNames) used.emplace_back(name, loc);
  for (const auto& rest : rests) used.emplace_back(rest.first, -1);
  std::sort(used.begin(), used.end(), [](const auto& a, const auto& b) {
    return std::stoi(a.first.substr(1)) < std::stoi(b.first.substr(1));
  });
  for (const auto& [name, loc] : used) {
    frontend::Location l = loc >= 0 ? kp.program.locations[static_cast<std::size_t>(loc)] : rests.at(name);
    l.name = name;
    if (l.ownerCta) l.ownerCta = ctas(*l.ownerCta);
    p.locations.push_back(std::move(l));
  }
  out.key = serialize(p);
  out.opaque = s.opaque;
  return out;
}

}  // namespace ptxmm::checker::kernel
