// Loop termination from the final values the others leave (LoopLiveness.hpp).
#include "checker/kernel/LoopLiveness.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "checker/SpinLoops.hpp"
#include "frontend/ptx/LaunchArgs.hpp"

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;
using model::ValueOp;
using Known = std::optional<std::int64_t>;

constexpr std::size_t kMaxEntryPaths = 64;
constexpr std::size_t kMaxRetryWriters = 256;  // the ms check is quadratic in the writers of the word

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

// A predicate that tests register `reg` against constant c (== when eq): a branch on it refines the register.
LoopLiveness::Val testOf(int reg, const LoopLiveness::Val& value, std::int64_t c, bool eq) {
  LoopLiveness::Val v;
  if (value.def < 0 || value.known || value.symbol >= 0) return v;
  v.testReg = reg;
  v.testDef = value.def;
  v.testValue = c;
  v.testEq = eq;
  return v;
}

// The same test, negated when `negate`.
LoopLiveness::Val sameTest(const LoopLiveness::Val& p, bool negate) {
  LoopLiveness::Val v;
  if (p.testReg < 0 || p.known) return v;
  v.testReg = p.testReg;
  v.testDef = p.testDef;
  v.testValue = p.testValue;
  v.testEq = p.testEq != negate;
  return v;
}

// A term's value when what it needs is known: registers from `regs`, reads from `read`; opaque values never are.
// Symbols (LoopLiveness::Val) compare: the same symbol is the same value, two different symbols differ; a value
// known to differ from a constant compares with it.
LoopLiveness::Val evaluate(const model::ValueExpr& e, const std::vector<LoopLiveness::Val>& regs,
                           const std::function<LoopLiveness::Val(int)>& read) {
  using Val = LoopLiveness::Val;
  switch (e.op) {
    case ValueOp::Const: return Known(e.constant);
    case ValueOp::Reg: return regs.at(static_cast<std::size_t>(e.index));
    case ValueOp::Read: return read(e.index);
    case ValueOp::Opaque: return {};
    default: break;
  }
  std::vector<Val> args;
  for (const auto& a : e.args) args.push_back(evaluate(*a, regs, read));
  if ((e.op == ValueOp::Eq || e.op == ValueOp::Ne) && args[0].symbol >= 0 && args[1].symbol >= 0)
    return Known((args[0].symbol == args[1].symbol) == (e.op == ValueOp::Eq));
  if ((e.op == ValueOp::Eq || e.op == ValueOp::Ne) && args.size() == 2)
    for (std::size_t i = 0; i < 2; ++i) {
      const Val& c = args[i];
      const Val& x = args[1 - i];
      if (!c.known || x.known) continue;
      if (x.excluded == c.known) return Known(e.op == ValueOp::Ne);
      if (*c.known == 0 && x.testReg >= 0) return sameTest(x, e.op == ValueOp::Eq);  // p != 0 is p, p == 0 its negation
      const auto& term = *e.args[1 - i];
      if (term.op == ValueOp::Reg) return testOf(term.index, x, *c.known, e.op == ValueOp::Eq);
    }
  if (e.op == ValueOp::LNot && !args[0].known) return sameTest(args[0], true);
  const auto is = [&](std::size_t i, bool truth) { return args[i].known && (*args[i].known != 0) == truth; };
  if (e.op == ValueOp::LAnd && (is(0, false) || is(1, false))) return Known(0);
  if (e.op == ValueOp::LOr && (is(0, true) || is(1, true))) return Known(1);
  if (e.op == ValueOp::Ite && args[0].known) return *args[0].known ? args[1] : args[2];
  std::vector<std::int64_t> concrete;
  for (const auto& a : args) {
    if (!a.known) return {};
    concrete.push_back(*a.known);
  }
  return Known(model::value::applyConcrete(e.op, concrete));
}

// Registers after a branch on `cond` went the way where it is `holds`: a register it tests, still holding the
// value the test saw, becomes the constant (==) or a value known to differ from it (!=).
void refine(std::vector<LoopLiveness::Val>& regs, const LoopLiveness::Val& cond, bool holds) {
  if (cond.known || cond.testReg < 0) return;
  LoopLiveness::Val& r = regs.at(static_cast<std::size_t>(cond.testReg));
  if (r.def != cond.testDef || r.known || r.symbol >= 0) return;
  if (cond.testEq == holds) r.known = cond.testValue;
  else r.excluded = cond.testValue;
}

// What two values agree on: the value when both are the same one (with its provenance only when that agrees
// too), a constant both are known to differ from, or nothing.
LoopLiveness::Val joinVal(const LoopLiveness::Val& a, const LoopLiveness::Val& b) {
  if (a == b) return a;
  LoopLiveness::Val out;
  if (a.same(b)) {
    out = a;
    out.def = out.testReg = out.testDef = -1;
    return out;
  }
  const auto differs = [](const LoopLiveness::Val& v, std::int64_t c) { return v.known ? *v.known != c : v.excluded == c; };
  for (const LoopLiveness::Val* v : {&a, &b}) {
    const Known c = v->known ? std::nullopt : v->excluded;
    if (c && differs(a, *c) && differs(b, *c)) out.excluded = c;
  }
  return out;
}

// What two register states agree on.
std::vector<LoopLiveness::Val> join(const std::vector<LoopLiveness::Val>& a, const std::vector<LoopLiveness::Val>& b) {
  std::vector<LoopLiveness::Val> out(a.size());
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = joinVal(a[r], b[r]);
  return out;
}

// A register state from another walk: what it knows of the values, without provenance (the walk numbers its own).
std::vector<LoopLiveness::Val> settled(std::vector<LoopLiveness::Val> regs) {
  for (auto& v : regs) v.def = v.testReg = v.testDef = -1;
  return regs;
}

// A register state with its assignment numbers renamed in the order they first appear. A walk only compares
// them for equality (refine), and numbers every later assignment afresh, so two states with the same canonical
// form at one node have the same continuations: walking one of them is enough.
// Registers `live` says are not read again are forgotten first.
std::vector<LoopLiveness::Val> canonical(std::vector<LoopLiveness::Val> regs, const std::vector<bool>& live) {
  for (std::size_t r = 0; r < regs.size(); ++r)
    if (!live[r]) regs[r] = LoopLiveness::Val{};
  std::map<int, int> renamed;
  const auto rename = [&](int& def) {
    if (def >= 0) def = renamed.try_emplace(def, static_cast<int>(renamed.size())).first->second;
  };
  for (auto& v : regs) {
    rename(v.def);
    rename(v.testDef);
  }
  return regs;
}

}  // namespace

LoopLiveness::LoopLiveness(const KernelGraph& kernel, const BarrierPhases& phases, KernelValues& values,
                           const MbarrierPhases* mbarriers, const ClusterPhases* clusters,
                           std::function<const PairVerdict&(int, int)> pair, SliceBuilder& builder, SliceRunner& runner,
                           SliceLimits limits, std::function<double()> remaining)
    : k_(kernel), phases_(phases), values_(values), mbarriers_(mbarriers), clusters_(clusters), builder_(builder), runner_(runner), limits_(limits),
      remaining_(std::move(remaining)), pair_(std::move(pair)) {}

void LoopLiveness::check(std::vector<KernelHang>& hangs, std::vector<std::string>& unknowns, std::set<std::pair<int, int>>* ends) {
  const auto& g = k_.graph();
  struct Stuck {
    std::vector<int> threads;
    KernelPosition at;
  };
  std::map<std::pair<int, std::string>, Stuck> stuck;  // (PTX line of the loop, what they read) -> threads
  std::map<std::string, int> undecided;  // why -> the PTX line of the loop
  std::map<int, std::string> witnessed;  // PTX line of a loop -> how a schedule shows it spin for ever
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t l = 0; l < g.threads[t].loops.size(); ++l) {
      // Nested waits of many threads take a while: stop at the --timeout, with what is left UNKNOWN.
      Outcome o = remaining_() < 0 ? Outcome{Verdict::Unknown, "the --timeout was spent before it was decided"}
                                   : checkLoop(static_cast<int>(t), static_cast<int>(l));
      const KernelPosition at = k_.loopPosition(static_cast<int>(t), static_cast<int>(l));
      if (o.verdict == Verdict::Unknown && spinsBy_)
        if (const auto how = spinsBy_(static_cast<int>(t), static_cast<int>(l))) {
          // One text per loop (the first schedule that shows it), so that its threads are reported together.
          const auto text = witnessed.try_emplace(at.ptxLine, "may spin forever: in " + *how +
                                                                   " it comes back to the loop's head with nothing changed").first;
          o = {Verdict::Hangs, text->second};
        }
      if (o.verdict == Verdict::Hangs) {
        Stuck& s = stuck[{at.ptxLine, o.detail}];
        if (s.threads.empty()) s.at = at;
        s.threads.push_back(static_cast<int>(t));
      }
      if (o.verdict == Verdict::Unknown)
        undecided.emplace("whether the loop ending at " + lineOf(at) + " always ends: " + o.detail, at.ptxLine);
      if (o.verdict == Verdict::Ends && ends) ends->emplace(static_cast<int>(t), static_cast<int>(l));
    }
  for (const auto& [key, s] : stuck) hangs.push_back({"spin loop never ends", k_.threadRange(s.threads) + " " + key.second, s.at});
  // A loop some thread is shown to spin in for ever does not always end, whatever other threads' instances do.
  std::set<int> hung;
  for (const auto& entry : stuck) hung.insert(entry.first.first);
  for (const auto& [why, ptxLine] : undecided)
    if (!hung.count(ptxLine)) unknowns.push_back(why);
}

LoopLiveness::Outcome LoopLiveness::checkLoop(int t, int l) {
  const auto& g = k_.graph();
  const model::ThreadGraph& tg = g.threads[static_cast<std::size_t>(t)];
  const model::LoopInfo& loop = tg.loops[static_cast<std::size_t>(l)];
  if (endsBy_ && endsBy_(t, l)) return {Verdict::Ends, ""};
  const bool nested = parentLoop(t, l) >= 0;
  const int header = firstHeader(t, l);
  const auto& headerEvents = header < 0 ? std::vector<int>{} : tg.nodes[static_cast<std::size_t>(header)].events;
  if (header < 0 || (!headerEvents.empty() && phases_.unreachable(headerEvents.front()))) return {Verdict::Ends, ""};
  if (endsAsRetry(t, l)) return {Verdict::Ends, ""};
  // Register values at the loop's entry. A state token an arrival on a static mbarrier returned before the loop
  // is one of the object's values before its completion: every one of them is tried.
  const auto forced = [this](int e) -> Known { return values_.readValue(e); };
  int token = -1;
  std::vector<std::int64_t> tokenValues;
  for (std::size_t n = 0; mbarriers_ && !nested && n < static_cast<std::size_t>(header); ++n)
    for (int e : tg.nodes[n].events)
      if (const auto values = mbarriers_->arrivalReadValues(e); values && !forced(e)) {
        if (token >= 0) return {Verdict::Unknown, "it follows more than one arrival on an mbarrier"};
        token = e;
        tokenValues = *values;
      }
  std::set<Regs> entrySet;
  std::string entryWhy;
  if (nested) {
    for (auto& regs : nestedEntries(t, l, forced, entryWhy)) entrySet.insert(std::move(regs));
  } else if (token < 0) {
    for (auto& regs : entryStates(t, header, entryWhy, forced)) entrySet.insert(std::move(regs));
  } else {
    for (std::int64_t v : tokenValues)
      for (auto& regs : entryStates(t, header, entryWhy, [&](int e) { return e == token ? Known(v) : forced(e); }))
        entrySet.insert(std::move(regs));
  }
  if (!entryWhy.empty()) return {Verdict::Unknown, entryWhy};
  const std::vector<Regs> entries(entrySet.begin(), entrySet.end());
  if (entries.empty()) return {Verdict::Ends, ""};

  // The locations its first iteration reads, and every write to them but its own from the loop on.
  std::set<int> polled;
  for (const model::Node& node : tg.nodes)
    if (node.iteration[static_cast<std::size_t>(l)] == 0)
      for (int e : node.events)
        if (k_.event(e).is(Tag::R) && !k_.event(e).is(Tag::CB) && k_.event(e).paddr >= 0) polled.insert(k_.event(e).paddr);
  std::vector<int> seeds, observed;
  for (int p : polled) {
    if (k_.locationOfPhysical(p) >= 0) observed.push_back(k_.locationOfPhysical(p));
    for (int w : values_.writesOf(p))
      if (k_.event(w).thread >= 0 && !(k_.event(w).thread == t && k_.event(w).node >= header)) seeds.push_back(w);
  }
  // Memory fairness: does every write of P reach the loop's polls?
  for (const model::Node& node : tg.nodes)
    if (node.iteration[static_cast<std::size_t>(l)] == 0)
      for (int r : node.events)
        for (int w : seeds)
          // A write in causality order before the poll needs no fairness: coherence keeps the poll from reading
          // anything co-before it (the plain store that constructs a latch, then a barrier).
          if (k_.event(r).is(Tag::R) && k_.event(r).paddr == k_.event(w).paddr && k_.event(w).thread != t &&
              !pair_(r, w).eventuallyVisible && !values_.before(w, r))
            return blindPoll(t, l, header, seeds,
                             "its poll at " + lineOf(k_.position(r)) + " is not guaranteed to ever see the write at " +
                                 lineOf(k_.position(w)) + " (they are not morally strong: the model's eventually-visible)");
  std::vector<std::map<int, std::int64_t>> finals;  // per permitted final state: physical location -> value
  // Static mbarriers (MbarrierPhases.hpp): every arrival happens in every execution, with nothing before it that
  // can block, so once the others are done the object holds the value after all of them.
  // Not while T spins, though, when an operation is T's own from the loop on, or another thread's that a barrier
  // T would meet only after the loop holds back: then the slice below decides (it cuts them).
  const auto heldBack = [&](int op) {
    const model::Event& ev = k_.event(op);
    if (ev.thread == t) return k_.instructionIndex(op) >= loop.header;
    bool dynamic = false;
    const auto at = heldBackAt(t, loop.header, ev.thread, dynamic);
    return dynamic || (at && *at <= k_.instructionIndex(op));
  };
  std::map<int, std::int64_t> completed;
  for (int p : polled)
    if (const auto v = mbarriers_ ? mbarriers_->completedValue(p) : std::nullopt) {
      const auto ops = mbarriers_->operations(p);
      if (std::none_of(ops.begin(), ops.end(), heldBack)) completed[p] = *v;
    }
  if (!polled.empty() && completed.size() == polled.size()) {
    finals.push_back(completed);
  } else if (seeds.empty()) {
    std::map<int, std::int64_t> init;
    for (int p : polled) init[p] = g.initValues[static_cast<std::size_t>(p)];
    finals.push_back(init);
  } else {
    std::string why;
    auto slice = builder_.build(seeds, {}, observed, limits_, why);
    if (!slice) return {Verdict::Unknown, "its slice cannot be built: " + why};
    for (std::size_t s = 0; s < slice->threads.size(); ++s)
      if (slice->threads[s] == t) {
        if (const std::string why = pollsOnly(t, l, slice->instructions[s]); !why.empty()) return {Verdict::Unknown, why};
        cutBefore(*slice, s, loop.header);
      } else {
        // While T spins, a barrier generation T would arrive at only after the loop never completes: the others
        // stop at their arrival there (the slice's barriers count the kept threads that arrive, so without the
        // cut they would pass it and write what they never write while T spins).
        bool dynamic = false;
        if (const auto at = heldBackAt(t, loop.header, slice->threads[s], dynamic)) cutBefore(*slice, s, *at);
        if (dynamic)
          return {Verdict::Unknown, "a thread whose writes it waits for meets it at a barrier whose generations are not static"};
      }
    for (int loc : observed) {
      if (!slice->locationNames.count(loc)) continue;  // no write in the slice: it keeps its initial value (below)
      frontend::CondValue v;
      v.kind = frontend::CondValue::Kind::Location;
      v.name = slice->locationNames.at(loc);
      slice->program.observed.push_back(v);
      slice->key += "observe " + v.name + "\n";
    }
    if (remaining_() < 0) return {Verdict::Unknown, "the --timeout was spent before it was decided"};
    const SliceAnswer& answer = runner_.run(*slice, std::max(0.0, remaining_()));
    if (answer.status != Status::Ok) return {Verdict::Unknown, "the engine on its slice: " + answer.reason};
    if (answer.states.empty()) {
      if (const std::string who = waitsOnCut(*slice, t, header); !who.empty())
        return {Verdict::Unknown, "its slice has no terminating execution, but the read at " + who +
                                      " (another thread, kept by the slice's ordering closure) may wait for what this "
                                      "thread writes after the loop"};
      return {Verdict::Hangs, "wait for threads that never finish (no execution of the writes they wait for ends)"};
    }
    for (const FinalState& state : answer.states) {
      std::map<int, std::int64_t> values;
      for (int p : polled) {
        const auto name = slice->locationNames.find(k_.locationOfPhysical(p));
        const auto key = name == slice->locationNames.end() ? answer.keys.end()
                                                             : std::find(answer.keys.begin(), answer.keys.end(), name->second);
        values[p] = key == answer.keys.end() ? g.initValues[static_cast<std::size_t>(p)]
                                             : state.values[static_cast<std::size_t>(key - answer.keys.begin())];
      }
      finals.push_back(std::move(values));
    }
  }
  Outcome result{Verdict::Ends, ""};
  for (const auto& values : finals)
    for (const auto& regs : entries) {
      const Outcome o = iterate(t, l, header, regs, [&](int e) -> Known {
        const auto it = values.find(k_.event(e).paddr);
        return it == values.end() ? std::nullopt : Known(it->second);
      });
      if (o.verdict == Verdict::Hangs) {
        std::string state;
        for (const auto& [p, v] : values) {
          const int loc = k_.locationOfPhysical(p);
          if (loc < 0) continue;
          const auto& kl = k_.kernel().locations[static_cast<std::size_t>(loc)];
          const auto& buffer = k_.kernel().buffers[static_cast<std::size_t>(kl.buffer)];
          state += (state.empty() ? "" : ", ") + buffer.name + "[" + std::to_string(kl.offset / frontend::elemBytes(buffer.elem)) +
                   "] == " + std::to_string(v);
        }
        if (state.empty()) return {Verdict::Hangs, "may spin forever: the loop reads no memory and does not exit on the values it had"};
        return {Verdict::Hangs, "may spin forever: once every other write is done it reads " + state + " and loops again"};
      }
      if (o.verdict == Verdict::Unknown) result = o;
    }
  return result;
}

// Register values at the loop's first header node, one vector per path that leads there (reads before the
// loop give their forced values, or stay unknown).
std::vector<LoopLiveness::Regs> LoopLiveness::entryStates(int t, int header, std::string& why,
                                                          const Reads& read) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  std::vector<Regs> out;
  std::vector<std::pair<int, Regs>> work;
  work.emplace_back(0, Regs(tg.regInit.begin(), tg.regInit.end()));
  // The states walked, by node: paths that meet again in the same state (the exits of a wait loop's unrolled
  // iterations do, once the registers that held the polled values are no longer read) are walked once, so the
  // bound counts different states, not paths.
  std::set<std::pair<int, Regs>> seen;
  const std::vector<std::vector<bool>>& live = liveBefore(t);
  const auto fresh = [&](int target, const Regs& regs) {
    return seen.emplace(target, canonical(regs, live[static_cast<std::size_t>(target)])).second;
  };
  std::size_t paths = 0;
  int version = 0;  // numbers the assignments, for the tests a branch refines registers by
  while (!work.empty()) {
    auto [n, regs] = std::move(work.back());
    work.pop_back();
    if (n == header) {
      out.push_back(settled(std::move(regs)));
      continue;
    }
    const model::Node& node = tg.nodes[static_cast<std::size_t>(n)];
    Regs next = regs;
    for (const auto& [r, term] : node.assigns) {
      next[static_cast<std::size_t>(r)] = evaluate(*term, regs, read);
      next[static_cast<std::size_t>(r)].def = ++version;
    }
    const Val condition = node.branch ? evaluate(*node.branch, regs, read) : Val(Known(0));
    const Known cond = condition.known;
    for (const model::Edge* e : {&node.next, &node.taken}) {
      if (e == &node.taken && (!node.branch || (cond && !*cond))) continue;
      if (e == &node.next && node.branch && cond && *cond) continue;
      // The unroll bound of a loop before this one: a path that iterates it more often leaves it by the exits of
      // its last unrolled iteration (the later iterations run the same code), with every register the loop assigns
      // unknown (a count of its iterations) and the others as they are here (nothing in the loop changes them).
      if (e->target == model::Edge::kBound) {
        if (e->backEdgeOf < 0) {
          why = "a loop before it can run more iterations than are unrolled, and the register values it leaves are "
                "not followed past them";
          return out;
        }
        const PastBound past = pastBound(t, e->backEdgeOf, node.iteration[static_cast<std::size_t>(e->backEdgeOf)]);
        Regs havoc = next;
        for (int r : past.changed) {
          havoc[static_cast<std::size_t>(r)] = Val{};
          havoc[static_cast<std::size_t>(r)].def = ++version;
        }
        for (int target : past.exits) {
          if (target > header || !fresh(target, havoc)) continue;
          if (++paths > kMaxEntryPaths) {
            why = "more than " + std::to_string(kMaxEntryPaths) + " paths lead to it";
            return out;
          }
          work.emplace_back(target, havoc);
        }
        continue;
      }
      if (e->target < 0 || e->target > header) continue;  // the end, or past the loop's first header
      Regs to = next;
      if (node.branch) refine(to, condition, e == &node.taken);
      if (!fresh(e->target, to)) continue;
      if (++paths > kMaxEntryPaths) {
        why = "more than " + std::to_string(kMaxEntryPaths) + " paths lead to it";
        return out;
      }
      work.emplace_back(e->target, std::move(to));
    }
  }
  return out;
}

// Per node of a thread: the registers whose value before the node may still be read (by the node or after it).
// Nodes are in a topological order and every edge goes forward but the unroll bound's, whose path goes on at the
// exits of the loop's last unrolled iteration with the registers the loop assigns unknown (pastBound): one
// backward pass is exact (an exit that is not later counts every register as read).
// The last thread's answer is kept: its loops ask one after another.
const std::vector<std::vector<bool>>& LoopLiveness::liveBefore(int t) const {
  if (liveThread_ == t) return live_;
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const std::size_t regs = tg.registers.size();
  liveThread_ = t;
  std::vector<std::vector<bool>>& live = live_;
  live.assign(tg.nodes.size(), std::vector<bool>(regs, false));
  std::vector<int> used;
  const auto use = [&](const model::ValuePtr& term) {
    if (term) model::value::collectRegs(term, used);
  };
  for (std::size_t n = tg.nodes.size(); n-- > 0;) {
    const model::Node& node = tg.nodes[n];
    std::vector<bool>& in = live[n];
    const auto after = [&](int target) {
      if (target <= static_cast<int>(n)) return in.assign(regs, true);
      const std::vector<bool>& there = live[static_cast<std::size_t>(target)];
      for (std::size_t r = 0; r < regs; ++r) in[r] = in[r] || there[r];
    };
    for (const model::Edge* e : {&node.next, &node.taken}) {
      if (e == &node.taken && !node.branch) continue;
      if (e->target >= 0) after(e->target);
      if (e->target != model::Edge::kBound) continue;
      if (e->backEdgeOf < 0) {
        in.assign(regs, true);
        continue;
      }
      const PastBound past = pastBound(t, e->backEdgeOf, node.iteration[static_cast<std::size_t>(e->backEdgeOf)]);
      std::vector<bool> beyond(regs, false);
      std::swap(in, beyond);
      for (int target : past.exits) after(target);
      for (int r : past.changed) in[static_cast<std::size_t>(r)] = false;
      for (std::size_t r = 0; r < regs; ++r) in[r] = in[r] || beyond[r];
    }
    for (const auto& assign : node.assigns) in[static_cast<std::size_t>(assign.first)] = false;
    used.clear();
    for (const auto& assign : node.assigns) use(assign.second);
    use(node.branch);
    for (int id : node.events) {
      const model::Event& ev = k_.event(id);
      use(ev.value);
      use(ev.existsIf);
      use(ev.assume);
      if (ev.barrier) {
        use(ev.barrier->id);
        use(ev.barrier->count);
        use(ev.barrier->quorum);
      }
    }
    for (int r : used) in[static_cast<std::size_t>(r)] = true;
  }
  return live;
}

LoopLiveness::PastBound LoopLiveness::pastBound(int t, int loop, int iteration) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const auto l = static_cast<std::size_t>(loop);
  std::set<int> changed, exits;
  for (const model::Node& node : tg.nodes) {
    if (node.iteration[l] < 0) continue;
    for (const auto& assign : node.assigns) changed.insert(assign.first);
    if (node.iteration[l] != iteration) continue;
    for (const model::Edge* e : {&node.next, &node.taken})
      if (e->target >= 0 && tg.nodes[static_cast<std::size_t>(e->target)].iteration[l] < 0) exits.insert(e->target);
  }
  return {{changed.begin(), changed.end()}, {exits.begin(), exits.end()}};
}

// One iteration of loop l from its first header node, as a dataflow over the iteration's nodes (they are in a
// topological order): a register keeps a value only where every path to a node agrees on it, so the work stays
// linear in the nodes however many paths there are. A loop nested in l runs through its unrolled iterations (a
// concrete trip count stays exact) and is folded past them: the back edge of its last unrolled iteration goes
// back to that iteration's header, as one more path there (a guess: it may come round any number of times), so
// the dataflow reaches a fixpoint that holds however often inner loops iterate (joins only forget).
std::optional<LoopLiveness::Flow> LoopLiveness::flow(int t, int l, int header, const Regs& regs, const Reads& read) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  Flow out;
  out.at.emplace(header, Return{settled(regs), false, false, false});
  std::set<int> work{header};
  std::map<std::pair<int, bool>, Return> back;  // (node, by its taken edge) -> the path that comes back from there
  int version = 0;  // numbers the assignments, for the tests a branch refines registers by
  const auto arrive = [&](int target, Return&& in) {
    const auto [it, fresh] = out.at.try_emplace(target, std::move(in));  // moves only when it inserts
    if (fresh) {
      work.insert(target);
      return;
    }
    // Two paths meet: they came apart at a branch ptxmm could not decide, so the node is reached by a guess. The
    // join is made in place (the hot spot of the walk).
    Return& have = it->second;
    bool differs = in.guessed != have.guessed || in.wrote != have.wrote || in.changed != have.changed, grew = false;
    for (std::size_t r = 0; r < have.regs.size(); ++r) {
      if (have.regs[r] == in.regs[r]) continue;
      differs = true;
      Val joined = joinVal(have.regs[r], in.regs[r]);
      if (joined == have.regs[r]) continue;
      have.regs[r] = std::move(joined);
      grew = true;
    }
    if (!differs) return;
    grew = grew || !have.guessed || (in.wrote && !have.wrote) || (in.changed && !have.changed);
    have.guessed = true;
    have.wrote = have.wrote || in.wrote;
    have.changed = have.changed || in.changed;
    if (grew) work.insert(target);
  };
  while (!work.empty()) {
    const int n = *work.begin();
    work.erase(work.begin());
    const Return& p = out.at.at(n);  // stays valid: arrive() below runs after p's last use (`next`, the flags)
    const model::Node& node = tg.nodes[static_cast<std::size_t>(n)];
    bool wrote = p.wrote, changed = p.changed;
    for (int e : node.events) {
      const model::Event& ev = k_.event(e);
      if (!ev.is(Tag::W)) continue;
      const Known exists = ev.existsIf ? evaluate(*ev.existsIf, p.regs, read).known : Known(1);
      const bool may = !exists || *exists;
      wrote = wrote || may;
      changed = changed || (may && !unchangingWrite(k_.graph(), e));
    }
    Regs next = p.regs;
    for (const auto& [r, term] : node.assigns) {
      next[static_cast<std::size_t>(r)] = evaluate(*term, p.regs, read);
      next[static_cast<std::size_t>(r)].def = ++version;
    }
    const Val condition = node.branch ? evaluate(*node.branch, p.regs, read) : Val(Known(0));
    const Known cond = condition.known;
    const bool guessed = p.guessed || (node.branch && !cond);
    std::vector<const model::Edge*> edges;
    for (const model::Edge* e : {&node.next, &node.taken}) {
      if (e == &node.taken && (!node.branch || (cond && !*cond))) continue;
      if (e == &node.next && node.branch && cond && *cond) continue;
      const bool leaves = e->target == model::Edge::kEnd ||
                          (e->target >= 0 && tg.nodes[static_cast<std::size_t>(e->target)].iteration[static_cast<std::size_t>(l)] < 0) ||
                          (e->backEdgeOf >= 0 && e->backEdgeOf != l && !nestedIn(t, e->backEdgeOf, l));
      if (!leaves) edges.push_back(e);
    }
    for (const model::Edge* e : edges) {
      Regs to = e == edges.back() ? std::move(next) : next;
      if (node.branch) refine(to, condition, e == &node.taken);
      Return in{std::move(to), guessed, wrote, changed};
      if (e->backEdgeOf == l || (e->target == model::Edge::kBound && e->backEdgeOf < 0)) {
        back[{n, e == &node.taken}] = std::move(in);
        continue;
      }
      if (e->target == model::Edge::kBound) {  // a nested loop past its unrolled iterations: the last one again
        const int h = e->backEdgeOf < 0 ? -1 : iterationHeader(t, n, e->backEdgeOf);
        if (h < 0) return std::nullopt;
        in.guessed = true;
        arrive(h, std::move(in));
        continue;
      }
      arrive(e->target, std::move(in));  // the next node, or a nested loop's next unrolled iteration
    }
  }
  for (auto& [from, r] : back) out.back.push_back(std::move(r));
  return out;
}

std::optional<std::vector<LoopLiveness::Return>> LoopLiveness::walkIteration(int t, int l, int header, const Regs& regs,
                                                                              const Reads& read) const {
  auto f = flow(t, l, header, regs, read);
  if (!f) return std::nullopt;
  return std::move(f->back);
}

bool LoopLiveness::nestedIn(int t, int inner, int outer) const {
  const auto& loops = k_.graph().threads[static_cast<std::size_t>(t)].loops;
  const model::LoopInfo& i = loops[static_cast<std::size_t>(inner)];
  const model::LoopInfo& o = loops[static_cast<std::size_t>(outer)];
  return inner != outer && o.header <= i.header && i.last <= o.last;
}

int LoopLiveness::parentLoop(int t, int l) const {
  const auto& loops = k_.graph().threads[static_cast<std::size_t>(t)].loops;
  int parent = -1;
  for (std::size_t o = 0; o < loops.size(); ++o)
    if (nestedIn(t, l, static_cast<int>(o)) && (parent < 0 || nestedIn(t, static_cast<int>(o), parent))) parent = static_cast<int>(o);
  return parent;
}

int LoopLiveness::iterationHeader(int t, int node, int loop) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const auto& from = tg.nodes[static_cast<std::size_t>(node)].iteration;
  for (int h = node; h >= 0; --h) {
    const model::Node& x = tg.nodes[static_cast<std::size_t>(h)];
    if (x.startsIterationOf != loop || x.iteration[static_cast<std::size_t>(loop)] != from[static_cast<std::size_t>(loop)]) continue;
    bool same = true;  // the same iteration of every loop around it
    for (std::size_t o = 0; o < tg.loops.size() && same; ++o)
      if (nestedIn(t, loop, static_cast<int>(o))) same = x.iteration[o] == from[o];
    if (same) return h;
  }
  return -1;
}

std::vector<LoopLiveness::Regs> LoopLiveness::nestedEntries(int t, int l, const Reads& read, std::string& why) const {
  const int parent = parentLoop(t, l);
  const int parentHeader = firstHeader(t, parent), header = firstHeader(t, l);
  if (parentHeader < 0 || header < 0) return {};
  std::vector<Regs> parentEntries;
  if (parentLoop(t, parent) >= 0) {
    parentEntries = nestedEntries(t, parent, read, why);
  } else {
    parentEntries = entryStates(t, parentHeader, why, read);
    if (!why.empty()) why += " (the loop around it)";
  }
  if (!why.empty()) return {};
  // The loop's header in the enclosing loop's iteration, folded: its state there holds in every iteration of both.
  const auto anyValue = [](int) { return Val(); };
  std::set<Regs> out;
  for (const Regs& entry : parentEntries) {
    const auto head = headState(t, parent, parentHeader, entry);
    const auto f = head ? flow(t, parent, parentHeader, *head, anyValue) : std::nullopt;
    if (!f) {
      why = "the loop around it cannot be followed";
      return {};
    }
    if (const auto it = f->at.find(header); it != f->at.end()) out.insert(settled(it->second.regs));
  }
  return {out.begin(), out.end()};
}

// The registers at the loop's head in ANY iteration, from one entry state: an iteration is walked with every read
// unknown (an earlier iteration may read any value) and what comes back is joined in, until nothing changes — a
// register assigned in the loop keeps a value only if every iteration gives it that value (a loop-carried
// register is not the one it had on entry). Each round either ends or forgets one more register.
std::optional<LoopLiveness::Regs> LoopLiveness::headState(int t, int l, int header,
                                                                        Regs regs) const {
  const auto anyValue = [](int) { return Val(); };
  regs = settled(std::move(regs));
  for (;;) {
    const auto back = walkIteration(t, l, header, regs, anyValue);
    if (!back) return std::nullopt;
    Regs joined = regs;
    for (const Return& r : *back) joined = settled(join(joined, r.regs));
    if (joined == regs) return regs;
    regs = std::move(joined);
  }
}

// One iteration of loop l from a head state that holds in every iteration, reading the final values: does every
// path leave the loop? A path that comes back without a guess comes back from every state the head state stands
// for, so a thread that runs after everyone else is done spins forever.
LoopLiveness::Outcome LoopLiveness::iterate(int t, int l, int header, const Regs& regs,
                                            const Reads& finalValue) const {
  const auto head = headState(t, l, header, regs);
  const auto back = head ? walkIteration(t, l, header, *head, finalValue) : std::nullopt;
  if (!back) return {Verdict::Unknown, "its iterations go where ptxmm cannot follow them (a loop around it)"};
  Outcome out{Verdict::Ends, ""};
  for (const Return& r : *back) {
    // An RMW poll that writes back what it read (atom.add 0, cas x->x) leaves memory as it was: a read here.
    if (r.changed) return {Verdict::Unknown, "its iterations write memory while it waits (not a spin wait)"};
    if (!r.guessed) return {Verdict::Hangs, ""};
    out = {Verdict::Unknown, "whether it comes back depends on values ptxmm does not know here (registers it carries "
                             "from one iteration to the next, or values it computes without reading memory)"};
  }
  return out;
}

// The slice of the writes T's loop waits for may keep T's own instructions from the loop on: its polls, when they
// are RMWs another thread's RMW may read from, and what follows the loop (a fence on a may-order path). The
// question is what T reads once it spins in the loop FOREVER: then nothing after the loop happens, and cutting
// T's polls is sound when each of the loop's kept instructions only reads, or writes back what it read
// (SpinLoops.hpp: memory unchanged, an await as design.md says): an execution in which T spins forever,
// restricted to the rest, is an execution of the cut slice (a read that read a poll's write reads the write that
// poll read instead, the same value, just before it in the same RMW chain).
std::string LoopLiveness::pollsOnly(int t, int l, const std::vector<int>& kept) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const model::LoopInfo& loop = tg.loops[static_cast<std::size_t>(l)];
  const std::set<int> own(kept.begin(), kept.end());
  for (const model::Node& node : tg.nodes) {
    // Control is cut with the rest, and what comes after the loop never happens while T spins in it.
    if (node.instr < loop.header || node.instr > loop.last || !own.count(node.instr)) continue;
    for (int e : node.events) {
      const model::Event& ev = k_.event(e);
      if (ev.is(Tag::W) ? !unchangingWrite(k_.graph(), e) : !ev.is(Tag::R) || ev.is(Tag::F) || ev.assume || ev.barrier)
        return "what it waits for depends on its own writes while it waits (an RMW poll that changes memory)";
    }
  }
  return "";
}

std::optional<int> LoopLiveness::heldBackAt(int t, int from, int u, bool& dynamic) const {
  auto at = phases_.blockedBy(t, from, u, dynamic);
  if (clusters_)
    if (const auto c = clusters_->blockedBy(t, from, u, dynamic); c && (!at || *c < *at)) at = c;
  return at;
}

// The cut removes T's code from the loop on; a kept thread that reads a location T writes there (a later block of a
// chained scan polling the flag T sets after its own wait) cannot finish in the slice, although in the launch it
// only waits for T: its non-termination says nothing about the writes T waits for.
std::string LoopLiveness::waitsOnCut(const Slice& slice, int t, int header) const {
  const model::EventGraph& g = k_.graph();
  std::set<int> cutWrites;
  const model::ThreadGraph& tg = g.threads[static_cast<std::size_t>(t)];
  for (std::size_t n = static_cast<std::size_t>(std::max(header, 0)); n < tg.nodes.size(); ++n)
    for (int e : tg.nodes[n].events)
      if (k_.event(e).is(Tag::W) && k_.event(e).paddr >= 0) cutWrites.insert(k_.event(e).paddr);
  for (std::size_t s = 0; s < slice.threads.size(); ++s) {
    if (slice.threads[s] == t) continue;
    const std::set<int> kept(slice.instructions[s].begin(), slice.instructions[s].end());
    for (const model::Node& node : g.threads[static_cast<std::size_t>(slice.threads[s])].nodes)
      if (kept.count(node.instr))
        for (int e : node.events)
          if (k_.event(e).is(Tag::R) && cutWrites.count(k_.event(e).paddr)) return lineOf(k_.position(e));
  }
  return "";
}

// Drops slice thread s's code from kernel instruction `from` on; jumps there go to the (new) end.
void LoopLiveness::cutBefore(Slice& slice, std::size_t s, int from) {
  auto& code = slice.program.threads[s].code;
  auto& map = slice.instructions[s];
  std::size_t cut = 0;
  while (cut < map.size() && (map[cut] < 0 || map[cut] < from)) ++cut;
  if (cut == map.size()) return;
  code.resize(cut);
  map.resize(cut);
  std::set<std::string> labels;
  for (const auto& in : code)
    if (in.op == frontend::Opcode::Label) labels.insert(in.operands.at(0).name);
  bool needEnd = false;
  for (auto& in : code)
    for (auto& o : in.operands)
      if (in.op != frontend::Opcode::Label && o.kind == frontend::Operand::Kind::Label && !labels.count(o.name)) {
        o.name = "Lcut";
        needEnd = true;
      }
  if (needEnd) {
    frontend::Instruction end;
    end.op = frontend::Opcode::Label;
    end.text = "Lcut:";
    end.operands = {frontend::Operand{frontend::Operand::Kind::Label, "Lcut", 0, {}}};
    code.push_back(std::move(end));
    map.push_back(-1);
  }
  slice.key += "cut thread " + std::to_string(s) + " at " + std::to_string(cut) + "\n";  // the engine's cache key
}

LoopLiveness::Outcome LoopLiveness::blindPoll(int t, int l, int header, const std::vector<int>& seeds,
                                              const std::string& unseen) {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const auto unknown = [&](const std::string& why) { return Outcome{Verdict::Unknown, unseen + ", and " + why}; };
  std::set<int> polled;
  for (const model::Node& node : tg.nodes)
    if (node.iteration[static_cast<std::size_t>(l)] == 0)
      for (int r : node.events)
        if (k_.event(r).is(Tag::R) && k_.event(r).paddr >= 0) polled.insert(k_.event(r).paddr);
  for (int w : seeds) {
    if (k_.event(w).thread == t) return unknown("its own thread writes what it polls before the loop");
    for (const model::Node& node : tg.nodes)
      if (node.iteration[static_cast<std::size_t>(l)] == 0)
        for (int r : node.events)
          if (k_.event(r).is(Tag::R) && k_.event(r).paddr == k_.event(w).paddr && pair_(r, w).eventuallyVisible)
            return unknown("the write at " + lineOf(k_.position(w)) + " is visible to it: which value it reads for ever "
                           "depends on the order of the writes");
  }
  // Nothing before the loop or in its iterations can put another thread's write in causality order before a poll,
  // so reading the initial values for ever is consistent with any execution of the others. Reads of the polled
  // locations (the polls, a first poll nvcc peeled off the loop) are exempt: in that execution they all read the
  // initial values, and an acquire that reads an initial value synchronises with nothing.
  constexpr Tag kOrdering[] = {Tag::ACQ, Tag::ACQ_REL, Tag::SC, Tag::F, Tag::PF, Tag::BA, Tag::BW, Tag::MB, Tag::MBOK,
                               Tag::CB, Tag::WBAR, Tag::AS, Tag::AWAIT, Tag::TCF, Tag::WGF};
  for (std::size_t n = 0; n < tg.nodes.size(); ++n) {
    if (static_cast<int>(n) >= header && tg.nodes[n].iteration[static_cast<std::size_t>(l)] != 0) continue;
    for (int e : tg.nodes[n].events) {
      const model::Event& ev = k_.event(e);
      const bool poll = polled.count(ev.paddr) && !ev.is(Tag::F) && !ev.is(Tag::MB) && !ev.is(Tag::CB) && !ev.is(Tag::AS) &&
                        (ev.is(Tag::R) || unchangingWrite(k_.graph(), e));
      if (poll) continue;
      if (ev.assume || ev.barrier || std::any_of(std::begin(kOrdering), std::end(kOrdering), [&](Tag g) { return ev.is(g); }))
        return unknown("its thread synchronises before it (" + ev.label + " at " + lineOf(k_.position(e)) +
                       "): whether it may read the initial value is not decided");
    }
  }
  std::map<int, std::int64_t> initial;
  for (int p : polled) initial[p] = k_.graph().initValues[static_cast<std::size_t>(p)];
  // The thread's reads of the polled locations before the loop read the initial values too: the loop must be
  // reached that way (a thread that enters the loop only after reading another value may not read it again).
  const auto readInitial = [&](int e) -> Known {
    const auto it = initial.find(k_.event(e).paddr);
    return it == initial.end() ? values_.readValue(e) : Known(it->second);
  };
  std::string why;
  const auto entries = entryStates(t, header, why, readInitial);
  if (!why.empty()) return unknown(why);
  if (entries.empty()) return unknown("its thread does not reach the loop when it reads the initial values");
  for (const auto& regs : entries)
    if (iterate(t, l, header, regs, readInitial).verdict == Verdict::Hangs)
      return {Verdict::Hangs, "may spin forever: " + unseen + "; it may read the initial value for ever"};
  return unknown("an iteration on the initial value does not come back");
}

int LoopLiveness::firstHeader(int t, int l) const {
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  for (std::size_t n = 0; n < tg.nodes.size(); ++n)
    if (tg.nodes[n].startsIterationOf == l && tg.nodes[n].iteration[static_cast<std::size_t>(l)] == 0) return static_cast<int>(n);
  return -1;
}

// The retry shape, by three symbolic walks of one iteration (symbol 0: the value the previous iteration's read
// returned, symbol 1: the value this iteration's read returns):
//   1. from any registers, the registers that hold this iteration's read on every path that comes back carry it;
//   2. with those registers holding symbol 0 and the read returning symbol 0 again, no path comes back;
//   3. with the read returning symbol 1 (another value), no path that comes back writes.
bool LoopLiveness::retries(int t, int l) {
  const auto [memo, fresh] = retries_.try_emplace({t, l}, false);
  if (!fresh) return memo->second;
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  const int header = firstHeader(t, l);
  for (std::size_t o = 0; o < tg.loops.size(); ++o)
    if (static_cast<int>(o) != l && tg.loops[o].header <= tg.loops[static_cast<std::size_t>(l)].last &&
        tg.loops[static_cast<std::size_t>(l)].header <= tg.loops[o].last)
      return false;  // nested: its iterations may run again and again
  // Its iterations access one word (one read of it, writes to it only) and fences: nothing that waits.
  int read = -1, word = -1;
  for (const model::Node& node : tg.nodes) {
    if (node.iteration[static_cast<std::size_t>(l)] != 0) continue;
    for (int e : node.events) {
      const model::Event& ev = k_.event(e);
      if (ev.is(Tag::F) && !ev.is(Tag::R) && !ev.is(Tag::W)) continue;
      const bool plain = (ev.is(Tag::R) || ev.is(Tag::W)) && ev.paddr >= 0 && !ev.assume && !ev.barrier && !ev.is(Tag::AS) &&
                         !ev.is(Tag::MB) && !ev.is(Tag::CB);
      if (!plain || (word >= 0 && ev.paddr != word) || (ev.is(Tag::R) && read >= 0)) return false;
      word = ev.paddr;
      if (ev.is(Tag::R)) read = e;
    }
  }
  if (header < 0 || read < 0 || values_.mixed(word)) return false;
  const auto returns = [&](int symbol) { return [read, symbol](int e) { return e == read ? Val::of(symbol) : Val(); }; };
  const auto carried = walkIteration(t, l, header, Regs(tg.registers.size()), returns(1));
  if (!carried || carried->empty()) return false;
  Regs head(tg.registers.size());
  bool carries = false;
  for (std::size_t r = 0; r < head.size(); ++r)
    if (std::all_of(carried->begin(), carried->end(), [&](const Return& b) { return b.regs[r].same(Val::of(1)); })) {
      head[r] = Val::of(0);
      carries = true;
    }
  const auto same = carries ? walkIteration(t, l, header, head, returns(0)) : std::nullopt;
  if (!same || !same->empty()) return false;
  const auto other = walkIteration(t, l, header, head, returns(1));
  return memo->second = other && std::none_of(other->begin(), other->end(), [](const Return& b) { return b.wrote; });
}

bool LoopLiveness::endsAsRetry(int t, int l) {
  if (!retries(t, l)) return false;
  const model::ThreadGraph& tg = k_.graph().threads[static_cast<std::size_t>(t)];
  int read = -1;
  for (const model::Node& node : tg.nodes)
    if (node.iteration[static_cast<std::size_t>(l)] == 0)
      for (int e : node.events)
        if (k_.event(e).is(Tag::R)) read = e;
  // The writes of the word, one per instruction of a thread (the unrolled copies of one are alike): pairwise ms,
  // and each in no loop or in a retry loop, which a write leaves.
  std::map<std::pair<int, int>, int> writes;
  for (int w : values_.writesOf(k_.event(read).paddr)) {
    const model::Event& ev = k_.event(w);
    if (ev.thread < 0) continue;  // the initial write: first in coherence order
    const model::ThreadGraph& wg = k_.graph().threads[static_cast<std::size_t>(ev.thread)];
    const model::Node& node = wg.nodes[static_cast<std::size_t>(ev.node)];
    writes.emplace(std::pair{ev.thread, node.instr}, w);
    for (std::size_t o = 0; o < wg.loops.size(); ++o)
      if (node.iteration[o] >= 0 && !retries(ev.thread, static_cast<int>(o))) return false;
  }
  if (writes.size() > kMaxRetryWriters) return false;
  for (auto a = writes.begin(); a != writes.end(); ++a) {
    if (a->first.first != t && !pair_(read, a->second).morallyStrong) return false;
    for (auto b = std::next(a); b != writes.end(); ++b)
      if (a->first.first != b->first.first && !pair_(a->second, b->second).morallyStrong) return false;
  }
  return true;
}

}  // namespace ptxmm::checker::kernel
