// Encoding of an EventGraph into Z3 formulas (ProgramEncoding.hpp).
#include "checker/z3/ProgramEncoding.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "checker/BarrierRules.hpp"
#include "checker/SpinLoops.hpp"
#include "checker/liveness/ProgressRules.hpp"
#include "checker/z3/SymbolicAlgebra.hpp"
#include "checker/z3/ValueEncoding.hpp"
#include "model/StaticRelations.hpp"
#include "model/ValueSemantics.hpp"

namespace ptxmm::checker::z3enc {

using model::BaseRel;
using model::Tag;
using model::ValueOp;

namespace {

constexpr unsigned kBits = 64;

// A Boolean per read event: "this read occurs in the term" (for dependencies), keyed by event id.
using DepSet = std::map<int, z3::expr>;

void orInto(DepSet& into, int read, const z3::expr& cond) {
  auto it = into.find(read);
  if (it == into.end())
    into.emplace(read, cond);
  else
    it->second = it->second || cond;
}

z3::expr sum(z3::context& ctx, const std::vector<z3::expr>& terms) {
  z3::expr s = ctx.int_val(0);
  for (const auto& t : terms) s = s + t;
  return s;
}

}  // namespace

// Registers, whether their values need an unspecified result, their dependency sets and the reads controlling
// the path, at one program point.
struct ProgramEncoding::ThreadState {
  std::vector<z3::expr> regs;
  std::vector<z3::expr> unspec;
  std::vector<DepSet> deps;
  DepSet controlling;
};

ProgramEncoding::ProgramEncoding(z3::context& ctx, const model::EventGraph& graph, const std::vector<ObservedKey>& keys,
                                 const liveness::ProgressModel* liveness, const model::Deadline& deadline)
    : ctx_(ctx), graph_(graph), deadline_(deadline), constraints_(ctx), unspecified_(ctx), events_(ctx, graph.events.size()), bounds_(graph.events.size()),
      divergent_(ctx.bool_val(false)), liveness_(liveness) {
  const std::size_t n = size();
  // Every execution listed for outcomes ends each thread (the unrolling bound is reported, not listed).
  exited_.assign(graph_.threads.size(), ctx.bool_val(true));
  for (std::size_t t = 0; t < model::kTagCount; ++t) sets_.emplace_back(ctx, n);
  for (std::size_t r = 0; r < model::kBaseRelCount; ++r) {
    deadline_.check(kEncodingStage);
    rels_.emplace_back(ctx, n);
  }
  value_.assign(n, ctx.bv_val(0, kValueBits));
  for (std::size_t p = 0; p < graph_.initCount(); ++p) {
    events_.set(p, ctx.bool_val(true));
    value_[p] = ctx.bv_val(graph_.initValues[p], kValueBits);
  }
  for (std::size_t t = 0; t < graph_.threads.size(); ++t) encodeThread(static_cast<int>(t));
  encodeStatic();
  encodeReadsFrom();
  encodeCoherence();
  encodeFenceOrder();
  encodeBarriers();
  // An aligned barrier reached from divergent code has no defined outcome (the liveness check reports it).
  if (!liveness_) constraints_.push_back(!divergent_);
  encodeOutcome(keys);
  for (std::size_t t = 0; t < model::kTagCount; ++t) bounds_.sets[t] = sets_[t].may;
  for (std::size_t r = 0; r < model::kBaseRelCount; ++r) bounds_.relations[r] = rels_[r].may;
}

// ---- one thread: control flow, values, dependencies, the spin-loop reduction --------------------------------

void ProgramEncoding::encodeThread(int t) {
  const auto& tg = graph_.threads[static_cast<std::size_t>(t)];
  regBase_.push_back(finalRegs_.size());
  const std::size_t regs = tg.registers.size();
  std::vector<z3::expr> initRegs;
  for (auto v : tg.regInit) initRegs.push_back(ctx_.bv_val(v, kValueBits));
  const std::vector<z3::expr> initUnspec(regs, ctx_.bool_val(false));
  const z3::expr yes = ctx_.bool_val(true), no = ctx_.bool_val(false);
  if (tg.nodes.empty()) {
    for (std::size_t r = 0; r < regs; ++r) {
      finalRegs_.push_back(initRegs[r]);
      finalUnspec_.push_back(initUnspec[r]);
    }
    ends_.push_back({yes, no, no, no, no, yes});
    return;
  }
  // Liveness mode: how the thread ends, collected along the way.
  const bool live = liveness_ != nullptr, stops = live && !liveness_->fair();
  const std::string tag = "_" + std::to_string(t) + "_";
  z3::expr blockedAny = no, spinningAny = no, stoppedAny = no, started = yes;
  auto fresh = [&](const std::string& what, std::size_t where) {
    return ctx_.bool_const((what + tag + std::to_string(where)).c_str());
  };

  // Incoming edges per node: (condition, state after the predecessor).
  std::vector<std::vector<std::pair<z3::expr, ThreadState>>> incoming(tg.nodes.size());
  std::vector<std::pair<z3::expr, ThreadState>> ends;
  std::vector<z3::expr> exec;
  z3::expr dropped = ctx_.bool_val(false);

  auto merge = [&](const std::vector<std::pair<z3::expr, ThreadState>>& in) {
    ThreadState s{in.back().second};
    for (std::size_t k = in.size() - 1; k-- > 0;) {
      const auto& [cond, st] = in[k];
      for (std::size_t r = 0; r < regs; ++r) {
        s.regs[r] = z3::ite(cond, st.regs[r], s.regs[r]);
        if (!z3::eq(st.unspec[r], s.unspec[r])) s.unspec[r] = z3::ite(cond, st.unspec[r], s.unspec[r]);
      }
    }
    // Dependencies: a read occurs on the path iff it occurs along the incoming edge that was taken.
    for (std::size_t r = 0; r < regs; ++r) {
      DepSet d;
      for (const auto& [cond, st] : in)
        for (const auto& [read, c] : st.deps[r]) orInto(d, read, cond && c);
      s.deps[r] = std::move(d);
    }
    DepSet c;
    for (const auto& [cond, st] : in)
      for (const auto& [read, x] : st.controlling) orInto(c, read, cond && x);
    s.controlling = std::move(c);
    return s;
  };

  // A term over registers (before the node) and the node's reads, as a bit vector with its unspecified flag.
  auto sym = [&](const model::ValuePtr& e, const ThreadState& s) {
    return encodeValue(
        ctx_, e, [&](int r) { return SymValue{s.regs[static_cast<std::size_t>(r)], s.unspec[static_cast<std::size_t>(r)]}; },
        [&](int read) { return value_[static_cast<std::size_t>(read)]; });
  };
  // A term the execution evaluates where `when` holds: a value it needs (ValueSemantics.hpp's unspecified flag).
  auto evaluated = [&](const model::ValuePtr& e, const ThreadState& s, const z3::expr& when) {
    const SymValue v = sym(e, s);
    if (!v.unspecified.is_false()) unspecified_.push_back(when && v.unspecified);
    return v.value;
  };
  // The reads occurring in a term once registers are substituted (the explicit engine's dependencies): its Read
  // leaves, and the reads its registers' terms contain.
  auto deps = [&](const model::ValuePtr& e, const ThreadState& s, DepSet& out) {
    std::set<std::pair<model::ValueOp, int>> seen;
    model::value::fold<char>(
        e, [](const model::ValuePtr&) { return false; },
        [&](const model::ValuePtr& p) {
          if (!seen.emplace(p->op, p->index).second) return char{};
          if (p->op == ValueOp::Read) orInto(out, p->index, ctx_.bool_val(true));
          if (p->op == ValueOp::Reg)
            for (const auto& [read, c] : s.deps[static_cast<std::size_t>(p->index)]) orInto(out, read, c);
          return char{};
        },
        [](const model::ValuePtr&, const char*) { return char{}; });
  };
  auto addDep = [&](BaseRel rel, int read, int event, const z3::expr& cond) {
    auto& r = rels_[static_cast<std::size_t>(rel)];
    const auto i = static_cast<std::size_t>(read), j = static_cast<std::size_t>(event);
    r.set(i, j, r.may.test(i, j) ? (r.at(i, j) || cond) : cond);
  };

  for (std::size_t ni = 0; ni < tg.nodes.size(); ++ni) {
    deadline_.check(kEncodingStage);
    const model::Node& node = tg.nodes[ni];
    ThreadState s = ni == 0 ? ThreadState{initRegs, initUnspec, std::vector<DepSet>(regs), {}} : merge(incoming[ni]);
    const z3::expr reached = ni == 0 ? ctx_.bool_val(true) : [&] {
      z3::expr_vector conds(ctx_);
      for (const auto& [c, st] : incoming[ni]) conds.push_back(c);
      return z3::mk_or(conds);
    }();
    // A thread the progress model need not schedule may stop before any node.
    z3::expr here = reached;
    if (stops) {
      const z3::expr stop = fresh("stop", ni);
      constraints_.push_back(z3::implies(stop, reached));
      here = reached && !stop;
      stoppedAny = stoppedAny || stop;
      if (ni == 0) started = !stop;
    }
    exec.push_back(here);
    z3::expr halt = no;  // the thread stays in this node for good (blocked at its wait or blocking read)

    for (std::size_t k = 0; k < node.events.size(); ++k) {
      const int e = node.events[k];
      const auto& ev = graph_.events[static_cast<std::size_t>(e)];
      const auto ue = static_cast<std::size_t>(e);
      z3::expr ex = here;
      // Liveness: the thread may block at a barrier's wait half (its arrive half is the event before).
      if (live && ev.is(Tag::BW) && k > 0) {
        const z3::expr blk = fresh("blocked", ue);
        constraints_.push_back(z3::implies(blk, here));
        ex = here && !blk;
        halt = halt || blk;
        blockedAny = blockedAny || blk;
        blocked_.emplace(node.events[k - 1], blk);
        stuckPoints_.push_back({t, blk, "barrier", node.events[k - 1], -1});
      }
      if (ev.existsIf) {
        ex = here && evaluated(ev.existsIf, s, here) != ctx_.bv_val(0, kValueBits);
        DepSet d;
        deps(ev.existsIf, s, d);
        for (const auto& [read, c] : d) addDep(BaseRel::Ctrl, read, e, ex && c);
      }
      events_.set(ue, ex);
      for (const auto& [read, c] : s.controlling) addDep(BaseRel::Ctrl, read, e, ex && c);
      if (ev.is(Tag::R)) value_[ue] = ctx_.bv_const(("v" + std::to_string(e)).c_str(), kValueBits);
      // A blocking event happens only once its condition holds (see PathEnumerator); in liveness mode the thread
      // may instead wait there forever, reading the co-latest write.
      if (ev.assume) {
        const z3::expr holds = evaluated(ev.assume, s, ex) != ctx_.bv_val(0, kValueBits);
        if (live) {
          const z3::expr aw = fresh("await", ue);
          constraints_.push_back(z3::implies(aw, ex && !holds));
          constraints_.push_back(z3::implies(ex && !aw, holds));
          halt = halt || aw;
          blockedAny = blockedAny || aw;
          fairReads_.push_back({aw, e, {}});
          stuckPoints_.push_back({t, aw, "await", e, -1});
        } else {
          constraints_.push_back(z3::implies(ex, holds));
        }
        // It controls what follows it, as in PathEnumerator::perform.
        DepSet d;
        deps(ev.assume, s, d);
        for (const auto& [read, c] : d) orInto(s.controlling, read, c);
      }
      if (ev.is(Tag::W) && ev.value) {
        value_[ue] = evaluated(ev.value, s, ex);
        DepSet d;
        deps(ev.value, s, d);
        for (const auto& [read, c] : d) addDep(BaseRel::Data, read, e, ex && c);
      }
      if (ev.barrier) {
        const model::ValuePtr& size = ev.barrier->count ? ev.barrier->count : ev.barrier->quorum;
        DepSet d;
        deps(ev.barrier->id, s, d);
        if (size) deps(size, s, d);
        for (const auto& [read, c] : d) addDep(BaseRel::Data, read, e, ex && c);
        if (ev.is(Tag::BA)) {
          BarrierArrival a{e, std::nullopt, t, barrierClass(graph_, ev), evaluated(ev.barrier->id, s, ex).simplify(),
                           std::nullopt, ev.barrier->aligned};
          if (size) a.size = evaluated(size, s, ex).simplify();
          for (int w : node.events)
            if (graph_.events[static_cast<std::size_t>(w)].is(Tag::BW)) a.wait = static_cast<std::size_t>(w);
          arrivals_.push_back(a);
        }
      }
    }
    // Assignments are simultaneous: every right-hand side reads the registers before the node.
    ThreadState after = s;
    for (const auto& [reg, t2] : node.assigns) {
      const SymValue v = sym(t2, s);
      after.regs[static_cast<std::size_t>(reg)] = v.value;
      after.unspec[static_cast<std::size_t>(reg)] = v.unspecified;
      DepSet d;
      deps(t2, s, d);
      after.deps[static_cast<std::size_t>(reg)] = std::move(d);
    }
    z3::expr takenCond = ctx_.bool_val(false);
    if (node.branch) {
      takenCond = evaluated(node.branch, after, here) != ctx_.bv_val(0, kValueBits);
      DepSet d;
      deps(node.branch, after, d);
      for (const auto& [read, c] : d) orInto(after.controlling, read, c);
    }

    // The iteration of loop L that ends at this node: the nodes of the same iteration of L and of every loop
    // around L. It is unobservable if none of its executed nodes does anything observable (SpinLoops.hpp); a
    // write-back candidate is not, in an execution where it writes the value its read half read.
    auto unobservable = [&](int loop) {
      const auto& info = tg.loops[static_cast<std::size_t>(loop)];
      z3::expr pure = ctx_.bool_val(true);
      for (std::size_t q = 0; q < tg.nodes.size(); ++q) {
        const auto& other = tg.nodes[q];
        if (other.instr < info.header || other.instr > info.last) continue;
        bool same = true;
        for (std::size_t l = 0; l < tg.loops.size(); ++l) {
          const auto& outer = tg.loops[l];
          if (outer.header <= info.header && info.last <= outer.last && other.iteration[l] != node.iteration[l]) same = false;
        }
        if (!same || q > ni) continue;
        bool assignsLive = false;
        for (const auto& [reg, t2] : other.assigns) assignsLive |= observableAssignment(info, reg);
        z3::expr clean = ctx_.bool_val(!assignsLive);
        for (int e : other.events) {
          if (!observableEvent(graph_, e)) continue;
          const z3::expr quiet = writeBackCandidate(graph_, e) ? valueOf(e) == valueOf(rmwRead(graph_, e)) : ctx_.bool_val(false);
          clean = clean && (!events_.at(static_cast<std::size_t>(e)) || quiet);
        }
        pure = pure && (!exec[q] || clean);
      }
      return pure;
    };

    // The reads and writes of the iteration of `loop` ending here (for memory fairness of a repeated iteration).
    auto iterationEvents = [&](int loop, bool reads) {
      const auto& info = tg.loops[static_cast<std::size_t>(loop)];
      std::vector<int> out;
      for (std::size_t q = 0; q <= ni; ++q) {
        const auto& other = tg.nodes[q];
        if (other.instr < info.header || other.instr > info.last) continue;
        bool same = true;
        for (std::size_t l = 0; l < tg.loops.size(); ++l) {
          const auto& outer = tg.loops[l];
          if (outer.header <= info.header && info.last <= outer.last && other.iteration[l] != node.iteration[l]) same = false;
        }
        if (!same) continue;
        for (int e : other.events)
          if (graph_.events[static_cast<std::size_t>(e)].is(reads ? Tag::R : Tag::W)) out.push_back(e);
      }
      return out;
    };

    const z3::expr go = here && !halt;
    std::vector<std::pair<model::Edge, z3::expr>> successors{{node.next, go && !takenCond}};
    if (node.branch) successors.emplace_back(node.taken, go && takenCond);
    for (auto [edge, cond] : successors) {
      // Liveness: an unobservable iteration is the one a stuck thread repeats forever; it goes no further.
      if (edge.backEdgeOf >= 0 && live) {
        const z3::expr u = unobservable(edge.backEdgeOf);
        const z3::expr spin = cond && u;
        spinningAny = spinningAny || spin;
        const std::vector<int> polls = iterationEvents(edge.backEdgeOf, true);
        for (int r : polls)
          fairReads_.push_back({spin && events_.at(static_cast<std::size_t>(r)), r, iterationEvents(edge.backEdgeOf, false)});
        // Named by its first poll, as the explicit search names it.
        const int where = !polls.empty() ? polls.front() : node.events.empty() ? -1 : node.events.front();
        stuckPoints_.push_back({t, spin, "spin", where, edge.backEdgeOf});
        cond = cond && !u;
      } else if (edge.backEdgeOf >= 0) {
        dropped = dropped || (cond && unobservable(edge.backEdgeOf));
      }
      if (edge.target == model::Edge::kEnd)
        ends.emplace_back(cond, after);
      else if (edge.target == model::Edge::kBound)
        boundHits_.push_back({t, edge.backEdgeOf, cond});
      else
        incoming[static_cast<std::size_t>(edge.target)].emplace_back(cond, after);
    }
  }
  constraints_.push_back(!dropped);
  if (live) {
    z3::expr_vector exits(ctx_), bounds(ctx_);
    for (const auto& [c, st] : ends) exits.push_back(c);
    for (const auto& hit : boundHits_)
      if (hit.thread == t) bounds.push_back(hit.when);
    const z3::expr exited = exits.empty() ? no : z3::mk_or(exits), bound = bounds.empty() ? no : z3::mk_or(bounds);
    ends_.push_back({exited, bound, blockedAny, spinningAny, stoppedAny, started});
    // Only a thread whose code ends exits (one at the bound counts as ending: it is reported), as in Execution.
    exited_[static_cast<std::size_t>(t)] = exited || bound;
  }
  const ThreadState end = ends.empty() ? ThreadState{initRegs, initUnspec, std::vector<DepSet>(regs), {}} : merge(ends);
  for (std::size_t r = 0; r < regs; ++r) {
    finalRegs_.push_back(end.regs[r]);
    finalUnspec_.push_back(end.unspec[r]);
  }
  // Control flow reaches an end or the bound; the bound is what the engine reports as UNKNOWN.
}

// ---- static relations -----------------------------------------------------------------------------------------

void ProgramEncoding::encodeStatic() {
  const std::size_t n = size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < model::kTagCount; ++t)
      if (graph_.events[i].tags.test(t)) sets_[t].set(i, events_.at(i));
  for (BaseRel rel : model::staticRelations())
    for (std::size_t i = 0; i < n; ++i) {
      deadline_.check(kEncodingStage);
      for (std::size_t j = 0; j < n; ++j)
        if (model::staticRelation(graph_, rel, static_cast<int>(i), static_cast<int>(j)))
          rels_[static_cast<std::size_t>(rel)].set(i, j, i == j ? events_.at(i) : events_.at(i) && events_.at(j));
    }
}

// ---- witness choices ------------------------------------------------------------------------------------------

void ProgramEncoding::encodeReadsFrom() {
  auto& rf = rels_[static_cast<std::size_t>(BaseRel::Rf)];
  for (std::size_t r = 0; r < size(); ++r) {
    const auto& ev = graph_.events[r];
    if (!ev.is(Tag::R)) continue;
    deadline_.check(kEncodingStage);
    z3::expr_vector choices(ctx_);
    for (std::size_t w = 0; w < size(); ++w) {
      const auto& wv = graph_.events[w];
      if (!wv.is(Tag::W) || wv.paddr != ev.paddr) continue;
      const z3::expr var = ctx_.bool_const(("rf_" + std::to_string(w) + "_" + std::to_string(r)).c_str());
      rf.set(w, r, var);
      choices.push_back(var);
      constraints_.push_back(z3::implies(var, events_.at(w) && events_.at(r) && value_[r] == value_[w]));
    }
    // An executed read reads exactly one write; a read that does not happen reads none.
    constraints_.push_back(z3::implies(events_.at(r), z3::atmost(choices, 1) && z3::atleast(choices, 1)));
  }
}

void ProgramEncoding::encodeCoherence() {
  auto& co = rels_[static_cast<std::size_t>(BaseRel::Co)];
  std::vector<std::vector<std::size_t>> perLocation(graph_.initCount());
  for (std::size_t w = 0; w < size(); ++w)
    if (graph_.events[w].is(Tag::W)) perLocation[static_cast<std::size_t>(graph_.events[w].paddr)].push_back(w);
  for (const auto& writes : perLocation) {
    for (std::size_t a : writes)
      for (std::size_t b : writes)
        if (a != b) {
          deadline_.check(kEncodingStage);
          const z3::expr var = ctx_.bool_const(("co_" + std::to_string(a) + "_" + std::to_string(b)).c_str());
          co.set(a, b, var);
          constraints_.push_back(z3::implies(var, events_.at(a) && events_.at(b)));
        }
    // A strict partial order with the initial write (writes[0]) below every other write that happens.
    for (std::size_t a : writes)
      for (std::size_t b : writes) {
        if (a == b) continue;
        deadline_.check(kEncodingStage);
        if (a == writes[0]) constraints_.push_back(z3::implies(events_.at(b), co.at(a, b)));
        constraints_.push_back(!(co.at(a, b) && co.at(b, a)));
        for (std::size_t c : writes)
          if (c != a && c != b) constraints_.push_back(z3::implies(co.at(a, b) && co.at(b, c), co.at(a, c)));
      }
  }
}

void ProgramEncoding::encodeFenceOrder() {
  auto& sf = rels_[static_cast<std::size_t>(BaseRel::SyncFence)];
  std::vector<std::size_t> fences;
  for (std::size_t i = 0; i < size(); ++i)
    if (graph_.events[i].is(Tag::F) && graph_.events[i].is(Tag::SC)) fences.push_back(i);
  for (std::size_t a : fences)
    for (std::size_t b : fences)
      if (a != b) sf.set(a, b, ctx_.bool_const(("sf_" + std::to_string(a) + "_" + std::to_string(b)).c_str()));
  // A strict total order on the fence.sc that happen.
  for (std::size_t a : fences)
    for (std::size_t b : fences) {
      if (a == b) continue;
      deadline_.check(kEncodingStage);
      constraints_.push_back(z3::implies(sf.at(a, b), events_.at(a) && events_.at(b)));
      constraints_.push_back(z3::implies(events_.at(a) && events_.at(b), sf.at(a, b) != sf.at(b, a)));
      for (std::size_t c : fences)
        if (c != a && c != b) constraints_.push_back(z3::implies(sf.at(a, b) && sf.at(b, c), sf.at(a, c)));
    }
}

// Barrier generations under the rules of BarrierRules.hpp, which BarrierMatching.cpp enumerates: ids, counts and
// quorums are terms (they may come from registers and memory), so two arrivals meet when their terms agree.
void ProgramEncoding::encodeBarriers() {
  auto& syncbar = rels_[static_cast<std::size_t>(BaseRel::Syncbar)];
  const std::vector<StaticUse> uses = staticUses(graph_);
  std::map<BarrierClass, std::vector<const BarrierArrival*>> classes;
  for (const auto& a : arrivals_) classes[a.cls].push_back(&a);
  const z3::expr one = ctx_.int_val(1), zero = ctx_.int_val(0);
  auto count = [&](const z3::expr& b) { return z3::ite(b, one, zero); };
  auto ex = [&](const BarrierArrival* a) { return events_.at(static_cast<std::size_t>(a->arrive)); };
  auto sameKey = [&](const BarrierArrival* a, const BarrierArrival* b) {
    return a->size ? a->id == b->id && *a->size == *b->size : a->id == b->id;
  };
  auto bv = [&](std::int64_t v) { return ctx_.bv_val(v, kBits); };
  int uid = 0;
  for (const auto& entry : classes) {
    // Named, not a structured binding: clang 14 (the fuzz build) cannot capture bindings in the lambdas below.
    const BarrierClass& cls = entry.first;
    const std::vector<const BarrierArrival*>& list = entry.second;
    const std::string prefix = "gen" + std::to_string(uid++) + "_";
    std::map<const BarrierArrival*, z3::expr> gen, complete, sync;
    if (cls.kind == BarrierKind::Counted) {
      // Generation numbers: full generations of count/T arrivals of distinct threads, then at most one partial.
      const z3::expr per = bv(graph_.threadsPerArrival());
      for (const auto* a : list) {
        const z3::expr g = ctx_.int_const((prefix + std::to_string(a->arrive)).c_str());
        gen.emplace(a, g);
        constraints_.push_back(z3::implies(ex(a), g >= 0 && g < static_cast<int>(list.size())));
      }
      for (const auto* a : list)
        for (const auto* b : list)
          if (a->thread == b->thread && a->arrive < b->arrive)
            constraints_.push_back(z3::implies(ex(a) && ex(b) && sameKey(a, b), gen.at(a) < gen.at(b)));
      for (const auto* a : list) {
        const z3::expr valid = *a->size > bv(0) && z3::srem(*a->size, per) == bv(0);
        const z3::expr size = z3::bv2int(*a->size / per, true);
        auto members = [&](const z3::expr& index) {
          std::vector<z3::expr> in;
          for (const auto* b : list) in.push_back(count(ex(b) && sameKey(a, b) && gen.at(b) == index));
          return sum(ctx_, in);
        };
        constraints_.push_back(z3::implies(ex(a) && valid, members(gen.at(a)) <= size));
        constraints_.push_back(z3::implies(ex(a) && gen.at(a) > 0, valid && members(gen.at(a) - 1) == size));
        complete.emplace(a, valid && members(gen.at(a)) == size);
      }
    } else {
      // Generation k holds the k-th arrivals; the users of the key are its arrivers and its static users.
      std::set<int> threads;
      for (const auto* b : list) threads.insert(b->thread);
      for (const StaticUse& u : uses)
        if (u.cls == cls) threads.insert(u.thread);
      for (const auto* a : list) {
        std::vector<z3::expr> before;
        for (const auto* b : list)
          if (b->thread == a->thread && b->arrive < a->arrive) before.push_back(count(ex(b) && sameKey(a, b)));
        gen.emplace(a, sum(ctx_, before));
      }
      for (const auto* a : list) {
        z3::expr holds = ctx_.bool_val(false), released = ctx_.bool_val(false);
        std::vector<z3::expr> members;
        for (int u : threads) {
          std::vector<z3::expr> arrived;
          for (const auto* b : list)
            if (b->thread == u) arrived.push_back(count(ex(b) && sameKey(a, b)));
          const z3::expr n = sum(ctx_, arrived);
          z3::expr user = n >= 1;
          for (const StaticUse& s : uses)
            if (s.thread == u && s.cls == cls) user = user || (a->size ? a->id == bv(s.id) && *a->size == bv(*s.size) : a->id == bv(s.id));
          const z3::expr exited = exited_[static_cast<std::size_t>(u)];
          holds = holds || (user && n <= gen.at(a) && !exited);
          released = released || (user && n <= gen.at(a) && exited);
          members.push_back(count(n > gen.at(a)));
        }
        if (cls.kind == BarrierKind::All) {
          complete.emplace(a, !holds);
          // An aligned barrier that a user's exit completes was reached from divergent code (BarrierRules.hpp).
          if (a->aligned) divergent_ = divergent_ || (ex(a) && !holds && released);
        } else {
          complete.emplace(a, sum(ctx_, members) >= z3::bv2int(*a->size, true));
          sync.emplace(a, ctx_.bool_const((prefix + "sync_" + std::to_string(a->arrive)).c_str()));
        }
      }
      // Dat3M's quorum: any Q or more of a complete generation's arrivals synchronise.
      for (const auto& [a, s] : sync) {
        std::vector<z3::expr> synced;
        for (const auto* b : list) synced.push_back(count(sync.at(b) && sameKey(a, b) && gen.at(b) == gen.at(a)));
        constraints_.push_back(z3::implies(s, ex(a) && complete.at(a)));
        constraints_.push_back(z3::implies(ex(a) && complete.at(a), sum(ctx_, synced) >= z3::bv2int(*a->size, true)));
      }
    }
    // A wait half runs once its generation is complete; a thread blocked at it waits on an incomplete one.
    for (const auto* a : list) {
      if (a->wait) constraints_.push_back(z3::implies(events_.at(static_cast<std::size_t>(*a->wait)), complete.at(a)));
      if (const auto b = blocked_.find(a->arrive); b != blocked_.end())
        constraints_.push_back(z3::implies(b->second, !complete.at(a)));
    }
    for (const auto* a : list)
      for (const auto* b : list)
        if (a->thread != b->thread && b->wait) {
          z3::expr edge = ex(a) && events_.at(static_cast<std::size_t>(*b->wait)) && sameKey(a, b) && gen.at(a) == gen.at(b);
          if (!sync.empty()) edge = edge && sync.at(a) && sync.at(b);
          syncbar.set(static_cast<std::size_t>(a->arrive), static_cast<std::size_t>(*b->wait), edge);
        }
  }
}

// ---- outcome ------------------------------------------------------------------------------------------------------

void ProgramEncoding::encodeOutcome(const std::vector<ObservedKey>& keys) {
  const auto& co = rels_[static_cast<std::size_t>(BaseRel::Co)];
  for (const auto& k : keys) {
    if (k.kind == ObservedKey::Kind::Register) {
      const std::size_t r = regBase_[static_cast<std::size_t>(k.thread)] + static_cast<std::size_t>(k.reg);
      outcome_.push_back(finalRegs_[r]);
      if (!finalUnspec_[r].is_false()) unspecified_.push_back(finalUnspec_[r]);
      continue;
    }
    // The final value is the value of one co-maximal write, chosen freely among them [§2.12].
    const z3::expr final = ctx_.bv_const(("final_" + k.display).c_str(), kValueBits);
    z3::expr_vector choices(ctx_);
    for (std::size_t w = 0; w < size(); ++w) {
      if (!graph_.events[w].is(Tag::W) || graph_.events[w].paddr != k.physical) continue;
      z3::expr maximal = events_.at(w);
      for (std::size_t x = 0; x < size(); ++x)
        if (co.may.test(w, x)) maximal = maximal && !co.at(w, x);
      const z3::expr pick = ctx_.bool_const(("last_" + k.display + "_" + std::to_string(w)).c_str());
      constraints_.push_back(z3::implies(pick, maximal && final == value_[w]));
      choices.push_back(pick);
    }
    constraints_.push_back(z3::atleast(choices, 1));
    outcome_.push_back(final);
  }
}

z3::expr ProgramEncoding::fairness(const SymRel* visible) const {
  const auto& rf = rels_[static_cast<std::size_t>(BaseRel::Rf)];
  const auto& co = rels_[static_cast<std::size_t>(BaseRel::Co)];
  z3::expr_vector all(ctx_);
  for (const auto& f : fairReads_) {
    const auto r = static_cast<std::size_t>(f.read);
    for (std::size_t w = 0; w < size(); ++w) {
      if (!rf.may.test(w, r)) continue;
      z3::expr latest = ctx_.bool_val(true);
      for (std::size_t x = 0; x < size(); ++x) {
        if (!co.may.test(w, x) || std::find(f.own.begin(), f.own.end(), static_cast<int>(x)) != f.own.end()) continue;
        if (visible && !visible->may.test(x, r)) continue;
        latest = latest && !(co.at(w, x) && (visible ? visible->at(x, r) : ctx_.bool_val(true)));
      }
      all.push_back(z3::implies(f.when && rf.at(w, r), latest));
    }
  }
  return z3::mk_and(all);
}

z3::expr ProgramEncoding::admitted() const {
  std::vector<liveness::Member<z3::expr>> threads;
  for (std::size_t t = 0; t < ends_.size(); ++t) {
    const ThreadEnd& e = ends_[t];
    // A thread at the bound may still do anything: it is taken as running, as the explicit search does.
    threads.push_back({static_cast<int>(t), e.started, e.spinning || e.bound || e.stopped, !e.stopped});
  }
  return liveness::hierarchyCanProgress(*liveness_, graph_, threads, ctx_.bool_val(true), ctx_.bool_val(false));
}

z3::expr ProgramEncoding::unspecified() const {
  return unspecified_.empty() ? ctx_.bool_val(false) : z3::mk_or(unspecified_);
}

z3::expr ProgramEncoding::thinAir() const {
  const SymRel cycle = closure(combine(ctx_, Combine::Union, rel(BaseRel::Rf), rel(BaseRel::Data)));
  return someReflexive(ctx_, cycle);
}

Witness ProgramEncoding::decode(const z3::model& m) const {
  auto holds = [&](const z3::expr& e) { return m.eval(e, true).is_true(); };
  Witness w;
  w.threadEvents.resize(graph_.threads.size());
  for (std::size_t e = graph_.initCount(); e < size(); ++e)
    if (holds(events_.at(e))) w.threadEvents[static_cast<std::size_t>(graph_.events[e].thread)].push_back(static_cast<int>(e));
  auto pairs = [&](BaseRel r) {
    std::vector<std::pair<int, int>> out;
    for (auto [i, j] : rel(r).may.pairs())
      if (holds(rel(r).at(i, j))) out.emplace_back(static_cast<int>(i), static_cast<int>(j));
    return out;
  };
  w.rf = pairs(BaseRel::Rf);
  w.co = pairs(BaseRel::Co);
  w.syncbar = pairs(BaseRel::Syncbar);
  std::vector<int> fences;
  for (std::size_t i = 0; i < size(); ++i)
    if (graph_.events[i].is(Tag::F) && graph_.events[i].is(Tag::SC) && holds(events_.at(i))) fences.push_back(static_cast<int>(i));
  const auto sf = pairs(BaseRel::SyncFence);
  auto before = [&](int a, int b) { return std::find(sf.begin(), sf.end(), std::pair{a, b}) != sf.end(); };
  std::sort(fences.begin(), fences.end(), before);
  w.fenceOrder = fences;
  for (const auto& o : outcome_) w.outcome.push_back(static_cast<std::int64_t>(m.eval(o, true).get_numeral_uint64()));
  return w;
}

}  // namespace ptxmm::checker::z3enc
