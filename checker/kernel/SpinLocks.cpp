// Lock regions, hand-offs decided by the cat model, lock-protected counters and acquire loops (SpinLocks.hpp).
#include "checker/kernel/SpinLocks.hpp"

#include <algorithm>

#include "checker/Execution.hpp"
#include "checker/kernel/SliceBuilder.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker::kernel {
namespace {

using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using model::Tag;

// The constant register or immediate `o` holds at instruction `at`: its only definition up to `to` is a `mov` of
// an immediate before `at`, either in [from, at) or with no branch before it (so every path runs it).
std::optional<std::int64_t> constantAt(const std::vector<Instruction>& code, const Operand& o, int from, int at, int to) {
  if (o.kind == Operand::Kind::Immediate && o.name.empty()) return o.value;
  if (o.kind != Operand::Kind::Register) return std::nullopt;
  int def = -1;
  for (int i = 0; i <= to; ++i) {
    const Instruction& in = code[static_cast<std::size_t>(i)];
    if (!frontend::writesFirstOperand(in) || in.operands.at(0).name != o.name) continue;
    if (def >= 0) return std::nullopt;
    def = i;
  }
  if (def < 0 || def >= at) return std::nullopt;
  const Instruction& in = code[static_cast<std::size_t>(def)];
  const bool mov = in.op == Opcode::Local && in.localOp == frontend::LocalOp::Mov && in.operands.size() == 2 &&
                   in.operands[1].kind == Operand::Kind::Immediate && in.operands[1].name.empty();
  const bool branches = std::any_of(code.begin(), code.begin() + def, [](const Instruction& b) {
    return b.op == Opcode::Branch || b.op == Opcode::Goto;
  });
  if (!mov || (def < from && branches)) return std::nullopt;
  return in.operands[1].value;
}

bool isRegister(const Operand& o, const std::string& name) { return o.kind == Operand::Kind::Register && o.name == name; }

// Whether register `r` is written in [from, to].
bool redefined(const std::vector<Instruction>& code, const std::string& r, int from, int to) {
  for (int i = from; i <= to; ++i)
    if (frontend::writesFirstOperand(code[static_cast<std::size_t>(i)]) && code[static_cast<std::size_t>(i)].operands.at(0).name == r)
      return true;
  return false;
}

// Whether branch `at` (the loop's back edge) is taken exactly when register `result` is not `free`.
bool leavesOnFree(const std::vector<Instruction>& code, int at, int cas, const std::string& result, std::int64_t free) {
  const Instruction& br = code[static_cast<std::size_t>(at)];
  const auto comparesResult = [&](const Operand& a, const Operand& b) {
    const auto isFree = [&](const Operand& o) { return o.kind == Operand::Kind::Immediate && o.name.empty() && o.value == free; };
    return (isRegister(a, result) && isFree(b)) || (isRegister(b, result) && isFree(a));
  };
  if (redefined(code, result, cas + 1, at)) return false;
  if (!br.predicated) return br.operands.size() == 3 && br.cmp == frontend::CmpOp::Ne && comparesResult(br.operands[0], br.operands[1]);
  const std::string& p = br.operands.at(0).name;
  for (int i = at - 1; i > cas; --i) {
    const Instruction& in = code[static_cast<std::size_t>(i)];
    if (!frontend::writesFirstOperand(in) || in.operands.at(0).name != p) continue;
    if (in.op != Opcode::Setp || in.operands.size() != 3) return false;
    const bool ne = br.negatePredicate ? in.cmp == frontend::CmpOp::Eq : in.cmp == frontend::CmpOp::Ne;
    return ne && comparesResult(in.operands[1], in.operands[2]);
  }
  return false;
}

// The compare-and-swap of a peeled first attempt whose failure branch is `branch`: [cas; register arithmetic;
// branch to the loop's `header` taken exactly when it did not read FREE], with the loop CAS's word and values.
int peeledAttempt(const std::vector<Instruction>& code, int branch, int header, const Instruction& loopCas,
                  const std::map<std::string, int>& labelAt) {
  const Instruction& br = code[static_cast<std::size_t>(branch)];
  if (br.op != Opcode::Branch || br.operands.empty()) return -1;
  const auto target = labelAt.find(br.operands.back().name);
  if (target == labelAt.end() || target->second != header) return -1;
  for (int a = branch - 1; a >= 0; --a) {
    const Instruction& in = code[static_cast<std::size_t>(a)];
    if (in.op == Opcode::Local || in.op == Opcode::Setp) continue;
    if (in.op != Opcode::Atom || in.atomOp != frontend::AtomOp::Cas || in.operands.size() != 4) return -1;
    for (std::size_t k = 1; k < 4; ++k)
      if (in.operands[k].kind != loopCas.operands[k].kind || in.operands[k].name != loopCas.operands[k].name ||
          in.operands[k].value != loopCas.operands[k].value)
        return -1;
    if (in.sem != loopCas.sem || in.scope != loopCas.scope || in.space != loopCas.space) return -1;
    const auto free = constantAt(code, in.operands[2], a, a, a);
    if (!free || !leavesOnFree(code, branch, a, in.operands[0].name, *free)) return -1;
    return a;
  }
  return -1;
}

// `term` without the truncations to the location's `bytes` (sign or zero extension of its low bits) that typed
// register arithmetic wraps it in: the location keeps only those bits, so the sum is the same modulo 2^(8 bytes).
model::ValuePtr withinWidth(model::ValuePtr term, int bytes) {
  const std::int64_t shift = 64 - 8 * static_cast<std::int64_t>(bytes);
  const auto isConst = [](const model::ValuePtr& p, std::int64_t v) { return p->op == model::ValueOp::Const && p->constant == v; };
  while (term && bytes < 8) {
    if (term->op == model::ValueOp::Shr && isConst(term->args[1], shift) && term->args[0]->op == model::ValueOp::Shl &&
        isConst(term->args[0]->args[1], shift))
      term = term->args[0]->args[0];
    else if (term->op == model::ValueOp::And && isConst(term->args[1], (std::int64_t{1} << (8 * bytes)) - 1))
      term = term->args[0];
    else
      break;
  }
  return term;
}

bool allowedInSection(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Fence:
    case Opcode::Local:
    case Opcode::Setp:
    case Opcode::Label: return true;
    default: return false;
  }
}

// Where two threads sit relative to each other in the scope tree (PairOracle's grouping).
int relation(const model::EventGraph& g, int a, int b) {
  const auto& ta = g.threads[static_cast<std::size_t>(a)];
  const auto& tb = g.threads[static_cast<std::size_t>(b)];
  return ta.warp == tb.warp && ta.cta == tb.cta ? 1 : ta.cta == tb.cta ? 2 : ta.cluster == tb.cluster ? 3 : ta.gpu == tb.gpu ? 4 : 5;
}

}  // namespace

SpinLocks::SpinLocks(const model::CatModel& model, const KernelGraph& kernel, KernelValues& values,
                     std::function<const PairVerdict&(int, int)> pair)
    : model_(model), k_(kernel), values_(values), pair_(std::move(pair)) {
  recognise();
}

std::optional<LockRegion> SpinLocks::region(int t, int loopIndex, int& paddr) const {
  const auto& code = k_.kernel().program.threads[static_cast<std::size_t>(t)].code;
  const auto& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const model::LoopInfo& loop = tg.loops[static_cast<std::size_t>(loopIndex)];
  LockRegion r;
  r.thread = t;
  r.loop = loopIndex;
  for (int i = loop.header; i <= loop.last; ++i) {
    const Instruction& in = code[static_cast<std::size_t>(i)];
    if (in.op == Opcode::Local || in.op == Opcode::Setp || in.op == Opcode::Label) continue;
    if (in.op == Opcode::Branch && i == loop.last) continue;
    if (in.op != Opcode::Atom || in.atomOp != frontend::AtomOp::Cas || r.cas >= 0) return std::nullopt;
    r.cas = i;
  }
  if (r.cas < 0) return std::nullopt;
  const Instruction& cas = code[static_cast<std::size_t>(r.cas)];
  if (cas.operands.size() != 4 || cas.operands[1].kind != Operand::Kind::Location || cas.operands[0].kind != Operand::Kind::Register)
    return std::nullopt;
  const auto free = constantAt(code, cas.operands[2], loop.header, r.cas, loop.last);
  const auto held = constantAt(code, cas.operands[3], loop.header, r.cas, loop.last);
  if (!free || !held || *free == *held) return std::nullopt;
  r.free = *free;
  // The back edge must return to the loop's head (the CAS again) and be its only way back; it falls through to
  // the section exactly when the CAS read FREE.
  const Instruction& back = code[static_cast<std::size_t>(loop.last)];
  if (back.op != Opcode::Branch || !leavesOnFree(code, loop.last, r.cas, cas.operands[0].name, r.free)) return std::nullopt;
  const std::string& word = cas.operands[1].name;
  r.acquires.push_back(r.cas);
  // Jumps into the section are allowed only from a peeled first attempt (the instantiator's rotated loop):
  // `atom.cas` of the same word and values; a branch to the loop's head taken exactly when it failed; `goto`.
  std::map<std::string, int> labelAt;
  for (int i = 0; i < static_cast<int>(code.size()); ++i)
    if (code[static_cast<std::size_t>(i)].op == Opcode::Label) labelAt[code[static_cast<std::size_t>(i)].operands.at(0).name] = i;
  std::set<std::string> targets;  // labels jumped to from somewhere other than a peeled attempt
  for (int j = 0; j < static_cast<int>(code.size()); ++j) {
    const Instruction& in = code[static_cast<std::size_t>(j)];
    if ((in.op != Opcode::Branch && in.op != Opcode::Goto) || in.operands.empty()) continue;
    const std::string& target = in.operands.back().name;
    const int peeled = in.op == Opcode::Goto && j >= 2 ? peeledAttempt(code, j - 1, loop.header, cas, labelAt) : -1;
    const auto to = labelAt.find(target);
    const bool intoSection = to != labelAt.end() && to->second > loop.last &&
                             std::all_of(code.begin() + loop.last + 1, code.begin() + to->second, [](const Instruction& x) {
                               return x.op == Opcode::Label;
                             });
    if (peeled >= 0 && j < loop.header && intoSection) r.acquires.push_back(peeled);
    else targets.insert(target);
  }
  // Nothing jumps into the loop past its head (to its exit test, with a result no CAS of this entry produced).
  for (int i = loop.header + 1; i <= loop.last; ++i)
    if (code[static_cast<std::size_t>(i)].op == Opcode::Label && targets.count(code[static_cast<std::size_t>(i)].operands.at(0).name))
      return std::nullopt;
  for (int i = loop.last + 1; i < static_cast<int>(code.size()); ++i) {
    const Instruction& in = code[static_cast<std::size_t>(i)];
    const bool touches = std::any_of(in.operands.begin(), in.operands.end(), [&](const Operand& o) {
      return o.kind == Operand::Kind::Location && o.name == word;
    });
    if (touches) {
      const bool exch = in.op == Opcode::Atom && in.atomOp == frontend::AtomOp::Exch && in.operands.size() == 3 && in.operands[1].name == word;
      const bool store = in.op == Opcode::St && in.operands.size() == 2 && in.operands[0].name == word;
      const Operand& value = in.operands.back();
      if (!(exch || store) || constantAt(code, value, loop.last + 1, i, i) != r.free) return std::nullopt;
      r.unlock = i;
      break;
    }
    if (!allowedInSection(in) || (in.op == Opcode::Label && targets.count(in.operands.at(0).name))) return std::nullopt;
  }
  if (r.unlock < 0) return std::nullopt;
  const int first = *std::min_element(r.acquires.begin(), r.acquires.end());
  for (std::size_t o = 0; o < tg.loops.size(); ++o)
    if (static_cast<int>(o) != loopIndex && tg.loops[o].header <= r.unlock && first <= tg.loops[o].last) return std::nullopt;
  // Each instruction from the loop's exit to the unlock is one node: its events happen once, in this order.
  std::map<int, std::vector<int>> nodesOf;
  for (std::size_t n = 0; n < tg.nodes.size(); ++n) nodesOf[tg.nodes[n].instr].push_back(static_cast<int>(n));
  for (int i = loop.last + 1; i <= r.unlock; ++i) {
    if (!performsEvents(code[static_cast<std::size_t>(i)])) continue;
    if (nodesOf[i].size() != 1) return std::nullopt;
    if (i < r.unlock)
      for (int e : tg.nodes[static_cast<std::size_t>(nodesOf[i][0])].events) {
        // An event that may not happen (a CAS's write) could relate more in the canonical hand-off than in the
        // launch, and could not carry the chain of holders: such sections are not decided here.
        if (k_.event(e).existsIf) return std::nullopt;
        r.inside.push_back(e);
      }
  }
  if (r.inside.empty()) return std::nullopt;
  const auto& locations = k_.kernel().program.locations;
  const auto at = std::find_if(locations.begin(), locations.end(), [&](const frontend::Location& l) { return l.name == word; });
  if (at == locations.end()) return std::nullopt;
  paddr = k_.graph().locationNames.at(static_cast<std::size_t>(at - locations.begin())).second;
  return r;
}

void SpinLocks::recognise() {
  std::map<int, std::vector<LockRegion>> found;
  std::set<int> twice;
  const auto& g = k_.graph();
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    std::set<int> words;
    for (std::size_t l = 0; l < g.threads[t].loops.size(); ++l) {
      int paddr = -1;
      auto r = region(static_cast<int>(t), static_cast<int>(l), paddr);
      if (!r) continue;
      if (!words.insert(paddr).second) twice.insert(paddr);  // two acquisitions by one thread: not this argument
      found[paddr].push_back(std::move(*r));
    }
  }
  for (auto& [paddr, regions] : found)
    if (!twice.count(paddr) && validLock(paddr, regions)) locks_.emplace(paddr, std::move(regions));
}

// The events of a region's successful acquire by CAS instruction `acquire` (its first node), inside and unlock, in
// program order.
namespace {
std::vector<int> windowOf(const KernelGraph& k, const LockRegion& r, int acquire) {
  const auto& tg = k.graph().threads[static_cast<std::size_t>(r.thread)];
  std::vector<int> out;
  for (const auto& node : tg.nodes)
    if (node.instr == acquire) {
      out = node.events;
      break;
    }
  out.insert(out.end(), r.inside.begin(), r.inside.end());
  for (const auto& node : tg.nodes)
    if (node.instr == r.unlock) out.insert(out.end(), node.events.begin(), node.events.end());
  return out;
}
}  // namespace

bool SpinLocks::validLock(int paddr, const std::vector<LockRegion>& regions) {
  std::set<int> ops;  // the events of every acquire CAS (all iterations) and unlock
  for (const LockRegion& r : regions) {
    if (r.free != regions.front().free) return false;
    for (const auto& node : k_.graph().threads[static_cast<std::size_t>(r.thread)].nodes)
      if (node.instr == r.unlock || std::count(r.acquires.begin(), r.acquires.end(), node.instr))
        for (int e : node.events)
          if (k_.event(e).paddr == paddr) ops.insert(e);
  }
  bool based = false;
  for (const KernelAccess& a : k_.accesses()) {
    if (k_.event(a.event).paddr != paddr || ops.count(a.event)) continue;
    const auto v = a.write ? values_.writeValue(a.event) : std::nullopt;
    if (!v || *v != regions.front().free) return false;
    for (int o : ops)
      if (!values_.before(a.event, o)) return false;
    based = true;
  }
  if (!based && k_.graph().initValues[static_cast<std::size_t>(paddr)] != regions.front().free) return false;
  for (int a : ops)
    for (int b : ops)
      if (a < b && k_.event(a).thread != k_.event(b).thread && !pair_(a, b).morallyStrong) return false;
  return true;
}

bool SpinLocks::handOffOrders(const LockRegion& h, int hAcquire, const LockRegion& n, int nAcquire) {
  const auto& g = k_.graph();
  const std::vector<int> wh = windowOf(k_, h, hAcquire), wn = windowOf(k_, n, nAcquire);
  // The signature: the threads' relation, each event's tags and location (numbered in order of use, with the
  // CTA owning it relative to the two threads): equal signatures are the same canonical execution up to renaming.
  std::map<int, int> names;
  std::string key = std::to_string(relation(g, h.thread, n.thread));
  for (const auto* w : {&wh, &wn}) {
    key += "|";
    for (int e : *w) {
      const model::Event& ev = g.events[static_cast<std::size_t>(e)];
      const int owner = ev.paddr < 0 ? -1 : g.ownerCta[static_cast<std::size_t>(ev.paddr)];
      const int ownerCode = owner < 0 ? 0 : owner == g.threads[static_cast<std::size_t>(h.thread)].cta ? 1
                            : owner == g.threads[static_cast<std::size_t>(n.thread)].cta ? 2 : 3;
      key += ev.tags.to_string() + "@" + std::to_string(names.emplace(ev.vaddr, names.size()).first->second) + "/" +
             std::to_string(ownerCode) + (ev.paddr >= 0 ? "p" + std::to_string(names.emplace(-2 - ev.paddr, names.size()).first->second) : "") + ",";
    }
  }
  if (const auto it = handOffs_.find(key); it != handOffs_.end()) return it->second;
  bool orders = true;
  evaluateHandOff(h, hAcquire, n, nAcquire, [&](const Execution& ex, model::Evaluator& ev) {
    const auto& bc = std::get<model::BitMatrix>(ev.definition(static_cast<std::size_t>(model_.findDef("bc0"))));
    for (int x : h.inside)
      for (int y : n.inside) orders = orders && bc.test(*ex.local(x), *ex.local(y));
  });
  return handOffs_[key] = orders;
}

void SpinLocks::evaluateHandOff(const LockRegion& h, int hAcquire, const LockRegion& n, int nAcquire,
                                const std::function<void(const Execution&, model::Evaluator&)>& use) const {
  const std::vector<int> wh = windowOf(k_, h, hAcquire), wn = windowOf(k_, n, nAcquire);
  ThreadPath ph, pn;
  ph.events = wh;
  pn.events = wn;
  Execution ex(k_.graph(), {&ph, &pn});
  const auto local = [&](int e) { return *ex.local(e); };
  const auto lockEvent = [&](const std::vector<int>& w, int instr, Tag t) {
    for (int e : w)
      if (k_.instructionIndex(e) == instr && k_.event(e).is(t)) return e;
    return -1;
  };
  std::vector<std::size_t> source;
  for (std::size_t r : ex.reads()) source.push_back(static_cast<std::size_t>(ex.event(r).paddr));  // the initial write
  const auto readFrom = [&](int read, int write) {
    if (read < 0 || write < 0) return;
    const auto at = std::find(ex.reads().begin(), ex.reads().end(), local(read));
    source[static_cast<std::size_t>(at - ex.reads().begin())] = local(write);
  };
  readFrom(lockEvent(wn, nAcquire, Tag::R), lockEvent(wh, h.unlock, Tag::W));
  readFrom(lockEvent(wh, h.unlock, Tag::R), lockEvent(wh, hAcquire, Tag::W));
  readFrom(lockEvent(wn, n.unlock, Tag::R), lockEvent(wn, nAcquire, Tag::W));
  model::BitMatrix rf(ex.size()), co(ex.size());
  for (std::size_t k = 0; k < ex.reads().size(); ++k) rf.set(source[k], ex.reads()[k]);
  std::map<int, std::vector<std::size_t>> writes;  // coherence: the initial write, then H's, then N's
  for (std::size_t i = 0; i < ex.size(); ++i)
    if (ex.event(i).is(Tag::W)) writes[ex.event(i).paddr].push_back(i);
  for (const auto& [loc, ws] : writes)
    for (std::size_t i = 0; i < ws.size(); ++i)
      for (std::size_t j = i + 1; j < ws.size(); ++j) co.set(ws[i], ws[j]);
  ex.candidate().rel(model::BaseRel::Rf) = std::move(rf);
  ex.candidate().rel(model::BaseRel::Co) = std::move(co);
  model::Evaluator ev(model_);
  ev.reset(ex.candidate());
  use(ex, ev);
}

std::optional<std::string> SpinLocks::race(int a, int b) {
  int la = -1, lb = -1;
  const LockRegion* ra = regionOf(a, la);
  const LockRegion* rb = regionOf(b, lb);
  if (!ra || !rb || la != lb || ra->thread == rb->thread || lockOrders(la) || model_.findDef("race") < 0 ||
      k_.graph().initValues[static_cast<std::size_t>(la)] != ra->free)
    return std::nullopt;
  bool races = false;
  for (const auto& [h, n] : {std::pair{ra, rb}, std::pair{rb, ra}})
    for (int ha : h->acquires)
      for (int na : n->acquires)
        if (!races)
          evaluateHandOff(*h, ha, *n, na, [&](const Execution& ex, model::Evaluator& ev) {
            if (!ev.failingChecks().empty()) return;
            const auto& r = std::get<model::BitMatrix>(ev.definition(static_cast<std::size_t>(model_.findDef("race"))));
            races = r.test(*ex.local(a), *ex.local(b)) || r.test(*ex.local(b), *ex.local(a));
          });
  if (!races) return std::nullopt;
  return pair_(a, b).kind;
}

bool SpinLocks::lockOrders(int paddr) {
  if (const auto it = orders_.find(paddr); it != orders_.end()) return it->second;
  bool orders = model_.findDef("bc0") >= 0;
  const auto& regions = locks_.at(paddr);
  for (const LockRegion& h : regions)
    for (const LockRegion& n : regions)
      if (h.thread != n.thread)
        for (int ha : h.acquires)
          for (int na : n.acquires) orders = orders && handOffOrders(h, ha, n, na);
  return orders_[paddr] = orders;
}

const LockRegion* SpinLocks::regionOf(int e, int& paddr) const {
  for (const auto& [word, regions] : locks_)
    for (const LockRegion& r : regions)
      if (r.thread == k_.event(e).thread && std::find(r.inside.begin(), r.inside.end(), e) != r.inside.end()) {
        paddr = word;
        return &r;
      }
  return nullptr;
}

bool SpinLocks::ordered(int a, int b) {
  int la = -1, lb = -1;
  const LockRegion* ra = regionOf(a, la);
  const LockRegion* rb = regionOf(b, lb);
  const model::Event &ea = k_.event(a), &eb = k_.event(b);
  return ra && rb && la == lb && ea.thread != eb.thread && ea.is(Tag::GEN) && eb.is(Tag::GEN) && ea.vaddr == eb.vaddr &&
         lockOrders(la);
}

std::optional<std::int64_t> SpinLocks::increment(int w) {
  if (const auto it = increments_.find(w); it != increments_.end()) return it->second;
  std::optional<std::int64_t> out;
  int word = -1;
  const LockRegion* r = regionOf(w, word);
  const model::Event& ew = k_.event(w);
  if (r && k_.instruction(w).op == Opcode::St && lockOrders(word)) {
    // Every access of the location: inside a section of this lock (one read, then one write, per section), or
    // a write before all of those, or a read after all of them.
    std::vector<int> inside, outside;
    for (const KernelAccess& a : k_.accesses())
      if (k_.event(a.event).paddr == ew.paddr) {
        int l = -1;
        (regionOf(a.event, l) && l == word ? inside : outside).push_back(a.event);
      }
    bool shaped = std::all_of(inside.begin(), inside.end(), [&](int e) {
      return k_.event(e).is(Tag::GEN) && k_.event(e).vaddr == ew.vaddr && !(k_.event(e).is(Tag::R) && k_.event(e).is(Tag::W));
    });
    for (int o : outside)
      for (int i : inside)
        shaped = shaped && (k_.access(o)->write ? values_.before(o, i) : values_.before(i, o));
    int read = -1;
    for (int e : r->inside)
      if (k_.event(e).paddr == ew.paddr) {
        if (k_.event(e).is(Tag::R) && read < 0 && e < w) read = e;
        else if (e != w) shaped = false;
      }
    const int loc = k_.locationOfPhysical(ew.paddr);
    const model::ValuePtr term = withinWidth(k_.writeTerm(w), loc < 0 ? 8 : k_.kernel().locations[static_cast<std::size_t>(loc)].size);
    if (shaped && read >= 0 && term && term->op == model::ValueOp::Add) {
      for (int side = 0; side < 2; ++side) {
        const auto& x = term->args[static_cast<std::size_t>(side)];
        const auto& c = term->args[static_cast<std::size_t>(1 - side)];
        if (x->op == model::ValueOp::Read && x->index == read && c->op == model::ValueOp::Const) out = c->constant;
      }
    }
  }
  return increments_[w] = out;
}

bool SpinLocks::acquireEnds(int thread, int loop) {
  const auto& g = k_.graph();
  for (const auto& [word, regions] : locks_)
    for (const LockRegion& r : regions) {
      if (r.thread != thread || r.loop != loop) continue;
      // The last write of the word is another holder's unlock (or nobody took the lock and every CAS reads FREE):
      // every other unlock must be eventually visible to every read of this thread's CASes.
      for (const auto& node : g.threads[static_cast<std::size_t>(thread)].nodes) {
        if (!std::count(r.acquires.begin(), r.acquires.end(), node.instr)) continue;
        for (int read : node.events) {
          if (!k_.event(read).is(Tag::R)) continue;
          for (const LockRegion& o : regions) {
            if (o.thread == thread) continue;
            for (const auto& other : g.threads[static_cast<std::size_t>(o.thread)].nodes)
              if (other.instr == o.unlock)
                for (int w : other.events)
                  if (k_.event(w).is(Tag::W) && !pair_(w, read).eventuallyVisible) return false;
          }
        }
      }
      return true;
    }
  return false;
}

}  // namespace ptxmm::checker::kernel
