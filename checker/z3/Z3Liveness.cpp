// Stuck executions as solver queries (Z3Liveness.hpp).
#include "checker/z3/Z3Liveness.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <variant>

#include "checker/liveness/ClusterExitGap.hpp"
#include "checker/liveness/HangText.hpp"
#include "checker/z3/ModelEncoding.hpp"
#include "checker/z3/ProgramEncoding.hpp"

namespace ptxmm::checker::z3enc {
namespace {

using liveness::Hang;
using liveness::LivenessResult;
using liveness::StuckThread;

z3::expr anyOf(z3::context& ctx, const std::vector<z3::expr>& xs) {
  z3::expr out = ctx.bool_val(false);
  for (const auto& x : xs) out = out || x;
  return out;
}

// At most this many stuck patterns are listed (each costs one more solver call); the verdict does not depend on it.
constexpr std::size_t kMaxPatterns = 16;

class LivenessQuery {
 public:
  LivenessQuery(const model::CatModel& model, const model::EventGraph& graph, const liveness::LivenessOptions& options)
      : model_(model), g_(graph), options_(options), solver_(ctx_, z3::solver::simple()) {}

  LivenessResult run() {
    result_.model = options_.progress.name();
    result_.method = "z3";
    try {
      return mappingOutOfMemory([&] { return decide(); });
    } catch (const model::LimitReached& e) {  // the encoding overran --timeout
      undecided(e.what());
      result_.resourceLimit = true;
      return result_;
    }
  }

 private:
  LivenessResult decide() {
    const model::Deadline deadline = engineDeadline(options_.limits);
    ProgramEncoding program(ctx_, g_, {}, &options_.progress, deadline);
    ModelEncoding model(ctx_, model_, program);
    if (model.unsupported()) return undecided(*model.unsupported());
    if (deadline.bounded()) {
      deadline.check(kEncodingStage);
      z3::params p(ctx_);
      p.set("timeout", static_cast<unsigned>(std::max(1.0, deadline.secondsLeft() * 1000)));
      solver_.set(p);
    }
    for (const auto& c : program.constraints()) solver_.add(c);
    for (const auto& a : model.axioms()) solver_.add(a.holds);
    const SymRel* visible = nullptr;
    if (const int d = model_.findDef(liveness::kEventuallyVisible); d >= 0)
      visible = std::get_if<SymRel>(&model.definition(static_cast<std::size_t>(d)));
    solver_.add(program.fairness(visible));
    std::vector<z3::expr> stuck, bound, exited;
    for (const auto& e : program.threadEnds()) {
      stuck.push_back(e.blocked || e.spinning);
      bound.push_back(e.bound);
      exited.push_back(e.exited);
    }
    const z3::expr anyStuck = anyOf(ctx_, stuck), anyBound = anyOf(ctx_, bound);
    z3::expr allExit = ctx_.bool_val(true);
    for (const auto& e : exited) allExit = allExit && e;
    const z3::expr admitted = program.admitted(), thinAir = program.thinAir();
    const z3::expr candidate = admitted && (anyStuck || anyBound);
    try {
      // The explicit search's order: divergence, hangs, then what leaves the verdict open.
      if (auto m = solve(program.divergent() && !thinAir && (allExit || candidate)))
        result_.hangs.push_back(divergentHang());
      // Every stuck pattern, as the explicit search lists them: each one found is excluded from the next query.
      z3::expr query = admitted && anyStuck && !anyBound && !thinAir;
      std::set<std::string> seen;
      for (std::size_t found = 0; found < kMaxPatterns; ++found) {
        if (found > 0 && deadline.bounded() && deadline.secondsLeft() <= 0) break;  // listing more is optional
        const auto m = solve(query);
        if (!m) break;
        Hang h = stuckHang(program, *m);
        query = query && !samePattern(program, *m);
        if (seen.insert(liveness::patternKey(h)).second) result_.hangs.push_back(std::move(h));
      }
      if (result_.hangs.empty()) {
        if (solve(candidate && thinAir))
          undecided("a candidate stuck execution has values that depend on themselves (out of thin air)");
        else if (auto m = solve(candidate && anyBound && !thinAir))
          undecided(boundReason(program, *m));
      }
    } catch (const std::runtime_error& e) {
      undecided(e.what());
      result_.resourceLimit = !result_.decided;
    }
    if (result_.hangs.empty())
      if (auto gap = liveness::clusterExitGap(g_)) undecided(*gap);
    result_.terminates = result_.hangs.empty();
    if (!result_.terminates) {
      result_.decided = true;
      result_.reason.clear();
    }
    return result_;
  }

  std::optional<z3::model> solve(const z3::expr& query) {
    solver_.push();
    solver_.add(query);
    const z3::check_result r = solver_.check();
    std::optional<z3::model> m;
    if (r == z3::sat) m = solver_.get_model();
    solver_.pop();
    if (r == z3::unknown) throw std::runtime_error("the solver gave up (" + solver_.reason_unknown() + ")");
    return m;
  }

  LivenessResult undecided(const std::string& reason) {
    if (result_.decided) {
      result_.decided = false;
      result_.reason = reason;
    }
    return result_;
  }

  std::string boundReason(const ProgramEncoding& program, const z3::model& m) const {
    for (std::size_t t = 0; t < program.threadEnds().size(); ++t)
      for (const auto& hit : program.boundHits())
        if (hit.thread == static_cast<int>(t) && m.eval(hit.when, true).is_true()) {
          const auto& loop = g_.threads[t].loops[static_cast<std::size_t>(hit.loop)];
          return "a candidate stuck execution needs more than " + std::to_string(g_.unrollBound) +
                 " iterations of the loop of " + g_.threads[t].name + " ending at " + loop.pos.file + ":" +
                 std::to_string(loop.pos.line) + " (raise --unroll)";
        }
    return "a candidate stuck execution needs more iterations than --unroll";
  }

  Hang divergentHang() const {
    Hang h;
    h.kind = "divergent-barrier";
    for (const auto& e : g_.events)
      if (e.barrier && e.barrier->aligned && e.is(model::Tag::BA)) {
        h.threads.push_back({g_.threads[static_cast<std::size_t>(e.thread)].name, "barrier", e.label, e.pos,
                             "an aligned barrier (bar = barrier.aligned) may be completed by a thread that exited "
                             "without reaching it: reached from divergent code, undefined behaviour"});
        break;
      }
    return h;
  }

  bool holds(const z3::model& m, const z3::expr& e) const { return m.eval(e, true).is_true(); }

  // The events of thread `t` that happen in `m`, in program order (event ids grow along a path).
  std::vector<int> executed(const ProgramEncoding& program, const z3::model& m, int t) const {
    std::vector<int> out;
    for (std::size_t e = g_.initCount(); e < g_.events.size(); ++e)
      if (g_.events[e].thread == t && holds(m, program.events().at(e))) out.push_back(static_cast<int>(e));
    return out;
  }

  // The events of the iteration of `loop` that thread `t` repeats forever: the last one it ran (its path ends at
  // that iteration's back edge), i.e. the trailing events whose nodes are in the same iteration of the loop and
  // of every loop around it.
  std::vector<int> repeatedIteration(const ProgramEncoding& program, const z3::model& m, int t, int loop) const {
    const auto& tg = g_.threads[static_cast<std::size_t>(t)];
    const auto& info = tg.loops[static_cast<std::size_t>(loop)];
    auto nodeOf = [&](int e) -> const model::Node& {
      return tg.nodes[static_cast<std::size_t>(g_.events[static_cast<std::size_t>(e)].node)];
    };
    const std::vector<int> events = executed(program, m, t);
    std::vector<int> out;
    if (events.empty() || nodeOf(events.back()).iteration[static_cast<std::size_t>(loop)] < 0) return out;
    const model::Node& last = nodeOf(events.back());
    for (auto e = events.rbegin(); e != events.rend(); ++e) {
      bool same = true;
      for (std::size_t l = 0; l < tg.loops.size(); ++l)
        if (tg.loops[l].header <= info.header && info.last <= tg.loops[l].last && nodeOf(*e).iteration[l] != last.iteration[l])
          same = false;
      if (!same) break;
      out.insert(out.begin(), *e);
    }
    return out;
  }

  // What polls `reads` keep reading ("flag=0, x=1"), and the co-later writes they need not see (memory fairness
  // let them miss only writes the model does not make eventually visible), except the `own` writes.
  std::pair<std::string, std::string> pollDetail(const ProgramEncoding& program, const z3::model& m,
                                                 const std::vector<int>& reads, const std::vector<int>& own) const {
    std::vector<std::string> items;
    std::vector<int> hidden;
    const auto& rf = program.rel(model::BaseRel::Rf);
    const auto& co = program.rel(model::BaseRel::Co);
    for (int r : reads) {
      const z3::expr v = m.eval(program.valueOf(r), true);
      items.push_back(liveness::pollItem(
          g_, r, v.is_numeral() ? std::optional(static_cast<std::int64_t>(v.get_numeral_uint64())) : std::nullopt));
      for (std::size_t w = 0; w < g_.events.size(); ++w) {
        if (!holds(m, rf.at(w, static_cast<std::size_t>(r)))) continue;
        for (std::size_t later = 0; later < g_.events.size(); ++later)
          if (holds(m, co.at(w, later)) && std::find(own.begin(), own.end(), static_cast<int>(later)) == own.end())
            hidden.push_back(static_cast<int>(later));
      }
    }
    return {liveness::joinItems(items), liveness::hiddenWritesText(g_, hidden)};
  }

  // The stuck point thread `t` is at in `m`, or null.
  const ProgramEncoding::StuckPoint* stuckAt(const ProgramEncoding& program, const z3::model& m, int t) const {
    for (const auto& p : program.stuckPoints())
      if (p.thread == t && holds(m, p.when)) return &p;
    return nullptr;
  }

  // The last event thread `t` performs in `m`, or -1 when it never started.
  int lastEvent(const ProgramEncoding& program, const z3::model& m, int t) const {
    if (!holds(m, program.threadEnds()[static_cast<std::size_t>(t)].started)) return -1;
    const std::vector<int> events = executed(program, m, t);
    return events.empty() ? -1 : events.back();
  }

  Hang stuckHang(const ProgramEncoding& program, const z3::model& m) const {
    Hang h;
    std::set<std::string> kinds;
    for (std::size_t t = 0; t < g_.threads.size(); ++t) {
      const int ti = static_cast<int>(t);
      const std::string name = g_.threads[t].name;
      const auto* p = stuckAt(program, m, ti);
      if (!p) {
        if (holds(m, program.threadEnds()[t].stopped)) h.threads.push_back(liveness::stoppedThread(g_, ti, lastEvent(program, m, ti)));
        continue;
      }
      if (p->how == "spin") {
        const auto& loop = g_.threads[t].loops[static_cast<std::size_t>(p->loop)];
        std::vector<int> reads, writes;
        for (int e : repeatedIteration(program, m, ti, p->loop))
          (g_.events[static_cast<std::size_t>(e)].is(model::Tag::R) ? reads : writes).push_back(e);
        const auto [read, hidden] = pollDetail(program, m, reads, writes);
        const std::string label = p->event >= 0 ? g_.events[static_cast<std::size_t>(p->event)].label : "";
        h.threads.push_back({name, "spin", label, loop.pos,
                             "the loop reads " + (reads.empty() ? std::string("nothing that changes") : read) +
                                 " forever and never exits" + (hidden.empty() ? "" : ": " + hidden)});
        bool mbarrier = !reads.empty();
        for (int r : reads) mbarrier &= g_.events[static_cast<std::size_t>(r)].is(model::Tag::MB);
        kinds.insert(mbarrier ? "mbarrier" : "spin");
      } else if (p->how == "barrier") {
        const auto& e = g_.events[static_cast<std::size_t>(p->event)];
        h.threads.push_back({name, "barrier", e.label, e.pos, "waits at the barrier forever: its generation never completes"});
        kinds.insert("barrier");
      } else {
        const auto& e = g_.events[static_cast<std::size_t>(p->event)];
        const auto [read, hidden] = pollDetail(program, m, {p->event}, {});
        h.threads.push_back({name, p->how, e.label, e.pos,
                             "its wait never succeeds: reads " + read + " forever" + (hidden.empty() ? "" : ": " + hidden)});
        kinds.insert(e.is(model::Tag::CB) ? "cluster-barrier" : "await");
      }
    }
    h.kind = kinds.size() == 1 ? *kinds.begin() : "mixed";
    return h;
  }

  // The executions that give the same stuck pattern as `m` (the same Hang key): every thread stuck at a point of
  // the same kind, loop and instruction, stopped right after the same instruction, or exited.
  z3::expr samePattern(const ProgramEncoding& program, const z3::model& m) {
    // What a Hang key says of a stuck point: a spin by its loop and first poll, a wait by its instruction and line.
    auto pointKey = [&](const ProgramEncoding::StuckPoint& q) {
      const std::string label = q.event < 0 ? std::string() : g_.events[static_cast<std::size_t>(q.event)].label;
      const std::string line = q.how == "spin" || q.event < 0 ? std::string() : liveness::at(g_.events[static_cast<std::size_t>(q.event)].pos);
      return q.how + "|" + std::to_string(q.loop) + "|" + label + "|" + line;
    };
    z3::expr same = ctx_.bool_val(true);
    for (std::size_t t = 0; t < g_.threads.size(); ++t) {
      const int ti = static_cast<int>(t);
      const auto& end = program.threadEnds()[t];
      if (const auto* p = stuckAt(program, m, ti)) {
        z3::expr alike = ctx_.bool_val(false);
        for (const auto& q : program.stuckPoints())
          if (q.thread == ti && pointKey(q) == pointKey(*p)) alike = alike || q.when;
        same = same && alike;
      } else if (!holds(m, end.stopped)) {
        same = same && end.exited;
      } else if (const int last = lastEvent(program, m, ti); last < 0) {
        same = same && end.stopped && !end.started;
      } else {
        // Stopped right after an event with the same instruction and line: it happens and no later one does.
        z3::expr after = ctx_.bool_val(false);
        const auto& le = g_.events[static_cast<std::size_t>(last)];
        for (std::size_t e = g_.initCount(); e < g_.events.size(); ++e) {
          const auto& ev = g_.events[e];
          if (ev.thread != ti || ev.label != le.label || liveness::at(ev.pos) != liveness::at(le.pos)) continue;
          z3::expr lastHere = program.events().at(e);
          for (std::size_t later = e + 1; later < g_.events.size(); ++later)
            if (g_.events[later].thread == ti) lastHere = lastHere && !program.events().at(later);
          after = after || lastHere;
        }
        same = same && end.stopped && end.started && after;
      }
    }
    return same;
  }

  z3::context ctx_;
  const model::CatModel& model_;
  const model::EventGraph& g_;
  const liveness::LivenessOptions& options_;
  z3::solver solver_;
  LivenessResult result_;
};

}  // namespace

liveness::LivenessResult checkLiveness(const model::CatModel& model, const model::EventGraph& graph,
                                       const liveness::LivenessOptions& options) {
  if (!liveness::canWait(graph)) {
    liveness::LivenessResult r;
    r.model = options.progress.name();
    r.method = "z3";
    return r;
  }
  return LivenessQuery(model, graph, options).run();
}

}  // namespace ptxmm::checker::z3enc
