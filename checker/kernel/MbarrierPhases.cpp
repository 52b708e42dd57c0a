// Static mbarriers: the value sequence of their arrivals and the waits that succeed only on its end
// (MbarrierPhases.hpp).
#include "checker/kernel/MbarrierPhases.hpp"

#include <algorithm>
#include <tuple>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// Beyond this many arrivals the pairwise checks are not worth it: the object is left to the slices.
constexpr std::size_t kMaxArrivals = 1024;
// Beyond this many count vectors (the product of each kind's count + 1) the chain's states are not computed.
constexpr std::size_t kMaxStates = 1 << 16;

// A term with its registers replaced by what the thread assigns them, when every assignment of each register is
// the same term (the state token an arrival returns is assigned once, outside loops); nullptr otherwise.
model::ValuePtr resolveRegisters(const model::ThreadGraph& t, const model::ValuePtr& term, int depth = 0) {
  if (depth > 16) return nullptr;
  std::vector<model::ValuePtr> regs;
  bool failed = false;
  model::value::fold<char>(
      term, [](const model::ValuePtr&) { return char{0}; },
      [&](const model::ValuePtr& leaf) {
        if (leaf->op != model::ValueOp::Reg) return char{0};
        const auto r = static_cast<std::size_t>(leaf->index);
        if (regs.size() <= r) regs.resize(r + 1);
        if (regs[r]) return char{0};
        model::ValuePtr found;
        std::string text;
        for (const model::Node& n : t.nodes)
          for (const auto& [reg, assigned] : n.assigns) {
            if (static_cast<std::size_t>(reg) != r) continue;
            const std::string printed = model::value::print(assigned, [](int x) { return "r" + std::to_string(x); },
                                                            [](int x) { return "e" + std::to_string(x); });
            if (found && printed != text) failed = true;
            found = assigned;
            text = printed;
          }
        if (!found) found = model::value::constant(r < t.regInit.size() ? t.regInit[r] : 0);
        else found = resolveRegisters(t, found, depth + 1);
        if (!found) failed = true;
        regs[r] = found;
        return char{0};
      },
      [](const model::ValuePtr&, const char*) { return char{0}; });
  return failed ? nullptr : model::value::substitute(term, regs);
}

// Fences that can head a release pattern (Frels, rel-restr) or end an acquire pattern (Facqs, acq-restr) of
// ptx-core.cat.
bool isFence(const model::Event& e, bool release) {
  return e.is(Tag::F) && (e.is(release ? Tag::REL : Tag::ACQ) || e.is(Tag::ACQ_REL) || e.is(Tag::SC));
}

bool isMemory(const model::Event& e) { return e.is(Tag::R) || e.is(Tag::W); }

bool isAtomic(const frontend::Instruction& in) { return in.op == frontend::Opcode::Atom || in.op == frontend::Opcode::Red; }

// Whether release head h orders event a po-before it (into-restr for restricted fences).
bool headCovers(const model::Event& h, const model::Event& a) {
  if (!h.is(Tag::RSTR)) return true;
  return (h.is(Tag::RMBINIT) && a.is(Tag::MBINIT)) || (h.is(Tag::RSHCTA) && isMemory(a) && a.is(Tag::SHCTA));
}

// Whether acquire tail t orders event b po-after it (out-of-restr for restricted fences).
bool tailCovers(const model::Event& t, const model::Event& b) {
  if (!t.is(Tag::RSTR)) return true;
  return t.is(Tag::RSHCLU) && isMemory(b) && b.is(Tag::SHARED);
}

}  // namespace

MbarrierPhases::MbarrierPhases(const KernelGraph& kernel, const BarrierPhases& phases,
                               std::function<bool(int, int)> morallyStrong, std::function<bool(int)> surely,
                               const ClusterPhases* clusters)
    : k_(kernel), values_(kernel, phases), morallyStrong_(std::move(morallyStrong)), surely_(std::move(surely)) {
  if (clusters) values_.addOrder([clusters](int a, int b) { return clusters->ordered(a, b); });
  const auto& g = k_.graph();
  std::map<int, std::vector<int>> byLocation;  // every thread event of each location some mbarrier op touches
  std::set<int> mbarriers;
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    if (ev.thread >= 0 && isFence(ev, true)) releaseFences_[ev.thread].push_back(static_cast<int>(e));
    if (ev.thread < 0 || ev.paddr < 0 || !(ev.is(Tag::R) || ev.is(Tag::W))) continue;
    byLocation[ev.paddr].push_back(static_cast<int>(e));
    // An mbarrier, or a word used as one: atomics on it and reads of it only (a counter barrier).
    if (ev.is(Tag::MB) || (ev.is(Tag::W) && isAtomic(k_.instruction(static_cast<int>(e))))) mbarriers.insert(ev.paddr);
  }
  for (const auto* list : {&g.aint, &g.adone})
    for (const auto& [x, y] : *list) asyncBefore_[y].push_back(x);
  for (int m : mbarriers) analyse(m, byLocation[m]);
}

void MbarrierPhases::analyse(int m, const std::vector<int>& events) {
  const auto& g = k_.graph();
  Object o;
  o.paddr = m;
  int init = -1;
  std::vector<int> waits;
  if (values_.mixed(m)) return;  // accesses of other sizes overlap the word
  const bool mbarrier = g.events[static_cast<std::size_t>(events.front())].is(Tag::MB);
  if (!mbarrier) {
    // A counter barrier starts from the launch's initial value, or from one plain store executed in every
    // execution and ordered before every other access of the word (a cuda::latch constructed by one thread, then
    // a barrier: checked with the other accesses below), and is otherwise only ever updated by atomics.
    init = values_.writesOf(m).front();
    int store = -1;
    for (int e : events) {
      const model::Event& ev = g.events[static_cast<std::size_t>(e)];
      const frontend::Instruction& in = k_.instruction(e);
      if (ev.is(Tag::MB) || ev.existsIf || ev.is(Tag::AS)) return;
      if (ev.is(Tag::W) && !isAtomic(in)) {
        if (store >= 0 || !surely_(e)) return;
        store = e;
      } else if (!isAtomic(in)) {
        waits.push_back(e);
      } else if (ev.is(Tag::W)) {
        const model::Event& r = k_.event(e - 1);
        if (!r.is(Tag::R) || r.node != ev.node || r.paddr != m || r.existsIf || !surely_(e)) return;
        o.ops.push_back(e);
      }
    }
    if (o.ops.empty() || o.ops.size() > kMaxArrivals || waits.empty()) return;
    if (store >= 0) init = store;
  }
  for (int e : mbarrier ? events : std::vector<int>{}) {
    const model::Event& ev = g.events[static_cast<std::size_t>(e)];
    if (!ev.is(Tag::MB)) return;  // the word is also read or written as plain memory
    if (ev.is(Tag::MBINIT)) {
      if (init >= 0) return;
      init = e;
      continue;
    }
    const frontend::Instruction& in = k_.instruction(e);
    if (!ev.is(Tag::AS) && in.op == frontend::Opcode::MbarWait && ev.is(Tag::R)) {
      waits.push_back(e);
      continue;
    }
    // Every other operation is a read-modify-write: its read, then its write (in po, or aint when asynchronous).
    if (!ev.is(Tag::AS) && in.op != frontend::Opcode::MbarArrive && in.op != frontend::Opcode::MbarExpectTx &&
        in.op != frontend::Opcode::MbarCompleteTx)
      return;  // mbarrier.inval, cp.async.mbarrier.arrive's increment ...
    if (ev.is(Tag::W)) {
      const model::Event& r = k_.event(e - 1);
      if (!r.is(Tag::R) || r.node != ev.node || r.paddr != m || !surely_(e)) return;
      if (ev.is(Tag::AS) && !(ev.is(Tag::REL) && r.is(Tag::AS))) return;  // only the implicit complete_tx (AAR)
      o.ops.push_back(e);
    }
  }
  if (init < 0 || (mbarrier && !surely_(init)) || o.ops.empty() || o.ops.size() > kMaxArrivals) return;
  for (int e : events)
    if (e != init && !values_.before(init, e)) return;
  if (!chainStates(o, init)) return;
  for (int a : o.ops) o.tokens.insert(a - 1);
  o.waitReads.insert(waits.begin(), waits.end());
  // Morally strong operations (one coherence chain).
  for (std::size_t i = 0; i < o.ops.size(); ++i)
    for (std::size_t j = i + 1; j < o.ops.size(); ++j)
      if (!strong(o.ops[i], o.ops[j])) return;
  // Wait reads obs reaches from every operation (morally strong with each; never a reduction's read), and the
  // success markers of acquire waits that succeed only on vN: their success condition is false on every earlier
  // state, also with a state token taken by an operation (which read one of the earlier states).
  std::map<std::string, bool> onlyLast;
  for (int r : waits) {
    if (k_.event(r).is(Tag::RED) || !std::all_of(o.ops.begin(), o.ops.end(), [&](int a) { return strong(a, r); }))
      continue;
    o.obsWaitReads.insert(r);
    if (!mbarrier) continue;
    const model::Event& ok = k_.event(r + 1);
    if (!ok.is(Tag::MBOK) || ok.node != k_.event(r).node || !ok.existsIf || !ok.is(Tag::ACQ)) continue;
    const model::ValuePtr done = resolveRegisters(g.threads[static_cast<std::size_t>(ok.thread)], ok.existsIf);
    if (!done) continue;
    std::vector<int> reads;
    model::value::collectReads(done, reads);
    int token = -1;
    bool usable = true;
    for (int x : reads) {
      if (x == r || k_.event(x).paddr != m) continue;
      if (token >= 0 || !std::count(o.ops.begin(), o.ops.end(), x + 1)) usable = false;
      token = x;
    }
    if (!usable) continue;
    const std::string key = model::value::print(done, [](int x) { return "r" + std::to_string(x); }, [&](int x) {
      return x == r ? std::string("W") : x == token ? std::string("A") : "e" + std::to_string(x);
    });
    auto it = onlyLast.find(key);
    if (it == onlyLast.end()) {
      bool only = true;
      const std::vector<std::int64_t> tokenValues = token >= 0 ? o.readValues.at(token) : std::vector<std::int64_t>{0};
      for (std::size_t j = 0; only && j < o.earlier.size(); ++j)
        for (std::size_t i = 0; only && i < tokenValues.size(); ++i) {
          const auto holds = model::value::evaluate(done, [&](int x) -> std::optional<std::int64_t> {
            if (x == r) return o.earlier[j];
            if (x == token) return tokenValues[i];
            return values_.readValue(x);
          });
          only = holds && *holds == 0;
        }
      it = onlyLast.emplace(key, only).first;
    }
    if (it->second) o.completions.push_back(r + 1);
  }
  // Release heads: a release arrival (rp1), or a release fence before a relaxed one, executed in every
  // execution (rp3, rel-restr); an implicit complete_tx for the accesses it tracks (`tracked` of ptx-core.cat).
  for (int a : o.ops) {
    const model::Event& ea = k_.event(a);
    if (ea.is(Tag::AS)) {
      std::vector<int> todo{a};
      std::set<int> seen;
      while (!todo.empty()) {
        const int x = todo.back();
        todo.pop_back();
        if (const auto it = asyncBefore_.find(x); it != asyncBefore_.end())
          for (int y : it->second)
            if (k_.event(y).is(Tag::AS) && seen.insert(y).second) todo.push_back(y);
      }
      for (int x : seen) o.trackedBy[x].push_back(a);
      continue;
    }
    std::set<int>& heads = o.heads[ea.thread];
    if (ea.is(Tag::REL) || ea.is(Tag::ACQ_REL)) heads.insert(a);
    else if (const auto it = releaseFences_.find(ea.thread); it != releaseFences_.end())
      for (int f : it->second)
        if (f < a && surely_(f)) heads.insert(f);
  }
  objects_.emplace(m, std::move(o));
}

bool MbarrierPhases::chainStates(Object& o, int init) {
  // Kinds of operations: the same write term, the operation's own read named alike.
  struct Kind {
    model::ValuePtr term;
    int self = -1;
    std::size_t count = 0, stride = 1;
    std::vector<int> reads;
  };
  std::vector<Kind> kinds;
  std::map<std::string, std::size_t> kindOf;
  for (int w : o.ops) {
    const model::ValuePtr term = k_.writeTerm(w);
    if (!term || model::value::containsOpaque(term)) return false;
    const std::string text = model::value::print(term, [](int r) { return "r" + std::to_string(r); },
                                                 [w](int r) { return r == w - 1 ? std::string("self") : "e" + std::to_string(r); });
    const auto [it, fresh] = kindOf.emplace(text, kinds.size());
    if (fresh) kinds.push_back({term, w - 1, 0, 1, {}});
    ++kinds[it->second].count;
    kinds[it->second].reads.push_back(w - 1);
  }
  std::size_t total = 1;
  for (Kind& k : kinds) {
    k.stride = total;
    total *= k.count + 1;
    if (total > kMaxStates) return false;
  }
  const auto v0 = values_.writeValue(init);
  if (!v0) return false;
  // states[n]: the one state after the operations of count vector n (mixed radix: digit i = done of kind i).
  std::vector<std::optional<std::int64_t>> states(total);
  states[0] = *v0;
  for (std::size_t n = 1; n < total; ++n)
    for (const Kind& k : kinds) {
      if ((n / k.stride) % (k.count + 1) == 0) continue;
      const std::int64_t before = *states[n - k.stride];
      const auto next = model::value::evaluate(k.term, [&](int r) { return r == k.self ? std::optional(before) : values_.readValue(r); });
      if (!next || (states[n] && *states[n] != *next)) return false;
      states[n] = next;
    }
  o.last = *states[total - 1];
  std::set<std::int64_t> earlier;
  for (std::size_t n = 0; n + 1 < total; ++n) earlier.insert(*states[n]);
  o.earlier.assign(earlier.begin(), earlier.end());
  o.earlier.erase(std::find(o.earlier.begin(), o.earlier.end(), *v0));
  o.earlier.insert(o.earlier.begin(), *v0);
  // An operation of kind i reads a state with fewer than all of kind i done.
  for (const Kind& k : kinds) {
    std::set<std::int64_t> read;
    for (std::size_t n = 0; n < total; ++n)
      if ((n / k.stride) % (k.count + 1) < k.count) read.insert(*states[n]);
    for (int r : k.reads) o.readValues[r].assign(read.begin(), read.end());
  }
  return true;
}

bool MbarrierPhases::strong(int a, int b) {
  // The model's `ms` depends only on the two events' tags and where their threads sit.
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  const auto& kt = k_.kernel().threads;
  const auto key = std::tuple{ea.tags.to_string(), eb.tags.to_string(), kt[static_cast<std::size_t>(ea.thread)].cta,
                              kt[static_cast<std::size_t>(eb.thread)].cta, ea.thread == eb.thread};
  const auto it = ms_.find(key);
  return it != ms_.end() ? it->second : (ms_[key] = morallyStrong_(a, b));
}

bool MbarrierPhases::acquiredBefore(int e, int m, int h) {
  const auto& kt = k_.kernel().threads;
  const auto key = std::tuple{e, m, k_.event(h).tags.to_string() + " " + std::to_string(kt[static_cast<std::size_t>(k_.event(h).thread)].cta)};
  if (const auto it = acquired_.find(key); it != acquired_.end()) return it->second;
  const Object& o = objects_.at(m);
  const model::Event& eb = k_.event(e);
  bool all = true, some = false;
  for (const ThreadPath& p : k_.paths(eb.thread)) {
    if (!all) break;
    const auto at = std::find(p.events.begin(), p.events.end(), e);
    if (at == p.events.end()) continue;
    some = true;
    // An acquire tail before e, morally strong with h: a completion's marker (ap4), or an acquire fence after a
    // wait read the path forces to vM (ap3, acq-restr); or the path is not feasible at all.
    all = std::any_of(p.events.begin(), at, [&](int x) {
            return std::binary_search(o.completions.begin(), o.completions.end(), x) && strong(h, x);
          }) ||
          std::any_of(p.events.begin(), at, [&](int r) {  // an acquire read the path forces to vN (ap1)
            const model::Event& er = k_.event(r);
            return o.obsWaitReads.count(r) && !er.is(Tag::MB) && (er.is(Tag::ACQ) || er.is(Tag::ACQ_REL)) && strong(h, r) &&
                   excluded(p, o, false, r);
          }) ||
          std::any_of(p.events.begin(), at, [&](int f) {
            const model::Event& ef = k_.event(f);
            if (!isFence(ef, false) || !tailCovers(ef, eb) || !strong(h, f)) return false;
            const auto fence = std::find(p.events.begin(), at, f);
            return std::any_of(p.events.begin(), fence, [&](int r) { return o.obsWaitReads.count(r) && excluded(p, o, false, r); });
          }) ||
          excluded(p, o, true, -1);
  }
  return acquired_[key] = all && some;
}

// Path assumptions are grouped per wait read (with at most one state token each); a group whose assumptions no
// value of the read (and of its token, v0 .. vM-1) meets among the first `count` values excludes them: a path
// that leaves the wait loop without its success marker assumes the wait failed and that the branch on the same
// result left the loop (no value at all), and a relaxed wait's loop exit assumes its success (only vM, when the
// condition holds on no earlier value). Other reads take their forced values (an unknown one refutes nothing).
bool MbarrierPhases::excluded(const ThreadPath& path, const Object& o, bool withLast, int onlyWait) {
  struct Group {
    std::vector<const PathAssumption*> assumptions;
    int token = -1;
    bool usable = true;
  };
  std::map<int, Group> byWait;
  for (const PathAssumption& a : path.assumptions) {
    std::vector<int> reads;
    model::value::collectReads(a.term, reads);
    int wait = -1, token = -1;
    bool usable = true;
    for (int x : reads) {
      if (o.waitReads.count(x)) {
        usable = usable && (wait < 0 || wait == x);
        wait = x;
      } else if (o.tokens.count(x)) {
        usable = usable && (token < 0 || token == x);
        token = x;
      } else if (k_.event(x).paddr == o.paddr) {
        usable = false;
      }
    }
    if (wait < 0 || !usable || (onlyWait >= 0 && wait != onlyWait)) continue;
    Group& g = byWait[wait];
    if (token >= 0) {
      g.usable = g.usable && (g.token < 0 || g.token == token);
      g.token = token;
    }
    g.assumptions.push_back(&a);
  }
  for (const auto& [wait, g] : byWait) {
    if (!g.usable) continue;
    const int w = wait, token = g.token;
    const auto readName = [w, token](int x) { return x == w ? std::string("W") : x == token ? std::string("A") : "e" + std::to_string(x); };
    std::string key = std::to_string(o.paddr) + (withLast ? "+" : "-") + ":";
    for (const PathAssumption* a : g.assumptions)
      key += (a->holds ? "+" : "-") + model::value::print(a->term, [](int r) { return "r" + std::to_string(r); }, readName) + ";";
    auto it = unsatisfiable_.find(key);
    if (it == unsatisfiable_.end()) {
      bool unsat = true;
      std::vector<std::int64_t> states = o.earlier;
      if (withLast) states.push_back(o.last);
      const std::vector<std::int64_t> tokenValues = token >= 0 ? o.readValues.at(token) : std::vector<std::int64_t>{0};
      for (std::size_t j = 0; unsat && j < states.size(); ++j)
        for (std::size_t i = 0; unsat && i < tokenValues.size(); ++i)
          unsat = std::any_of(g.assumptions.begin(), g.assumptions.end(), [&](const PathAssumption* a) {
            const auto v = model::value::evaluate(a->term, [&](int x) -> std::optional<std::int64_t> {
              if (x == w) return states[j];
              if (x == token) return tokenValues[i];
              return values_.readValue(x);
            });
            return v && (*v != 0) != a->holds;
          });
      it = unsatisfiable_.emplace(key, unsat).first;
    }
    if (it->second) return true;
  }
  return false;
}

bool MbarrierPhases::ordered(int a, int b) {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (ea.thread < 0 || eb.thread < 0 || ea.thread == eb.thread) return false;
  if (ea.is(Tag::AS)) {
    // `tracked ; sw-ra ; bc0?`: only the operation's own accesses, and only generic ones towards generic accesses
    // (ppbc C1; an async-proxy access needs a proxy fence, C3).
    if (!isMemory(ea) || !ea.is(Tag::GEN) || (isMemory(eb) && !eb.is(Tag::GEN))) return false;
    for (const auto& [m, o] : objects_)
      if (const auto it = o.trackedBy.find(a); it != o.trackedBy.end())
        for (int h : it->second)
          if (acquiredBefore(b, m, h)) return true;
    return false;
  }
  for (const auto& [m, o] : objects_) {
    const auto it = o.heads.find(ea.thread);
    if (it == o.heads.end()) continue;
    for (auto h = it->second.upper_bound(a); h != it->second.end(); ++h)
      if (headCovers(k_.event(*h), ea) && acquiredBefore(b, m, *h)) return true;
  }
  return false;
}

bool MbarrierPhases::completedBefore(int op, int b) {
  const model::Event& eo = k_.event(op);
  if (eo.thread < 0 || k_.event(b).thread < 0) return false;
  // An asynchronous access is performed before the implicit complete_tx that tracks it (adone), whatever its proxy.
  for (const auto& [m, o] : objects_)
    if (const auto it = o.trackedBy.find(op); it != o.trackedBy.end())
      for (int h : it->second)
        if (acquiredBefore(b, m, h)) return true;
  const auto it = eo.paddr >= 0 ? objects_.find(eo.paddr) : objects_.end();
  if (it == objects_.end()) return false;
  const auto& ops = it->second.ops;
  // An operation's read half is the event just before its write.
  const int write = std::find(ops.begin(), ops.end(), op) != ops.end() ? op : op + 1;
  if (std::find(ops.begin(), ops.end(), write) == ops.end()) return false;
  if (k_.event(write).thread != eo.thread || k_.event(write).node != eo.node) return false;
  return acquiredBefore(b, it->first, write);
}

std::optional<std::vector<std::int64_t>> MbarrierPhases::arrivalReadValues(int e) const {
  const model::Event& ev = k_.event(e);
  const auto it = ev.paddr >= 0 && ev.is(Tag::R) ? objects_.find(ev.paddr) : objects_.end();
  if (it == objects_.end() || !it->second.tokens.count(e)) return std::nullopt;
  return it->second.readValues.at(e);
}

std::optional<std::int64_t> MbarrierPhases::completedValue(int paddr) const {
  const auto it = objects_.find(paddr);
  if (it == objects_.end()) return std::nullopt;
  return it->second.last;
}

std::vector<int> MbarrierPhases::operations(int paddr) const {
  const auto it = objects_.find(paddr);
  return it == objects_.end() ? std::vector<int>{} : it->second.ops;
}

}  // namespace ptxmm::checker::kernel
