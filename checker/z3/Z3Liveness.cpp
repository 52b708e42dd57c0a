// Stuck executions as solver queries (Z3Liveness.hpp).
#include "checker/z3/Z3Liveness.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <variant>

#include "checker/liveness/ClusterExitGap.hpp"
#include "checker/z3/ModelEncoding.hpp"
#include "checker/z3/ProgramEncoding.hpp"
#include "model/MbarrierLayout.hpp"

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
      if (auto m = solve(admitted && anyStuck && !anyBound && !thinAir)) result_.hangs.push_back(stuckHang(program, *m));
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

  // What a stuck poll keeps reading, as "flag=0" (the explicit search lists every poll of the iteration; this
  // names the first). "its non-exit values" when the event is not a read of a location.
  std::string readText(const ProgramEncoding& program, const z3::model& m, int event) const {
    if (event < 0) return "its non-exit values";
    const auto& e = g_.events[static_cast<std::size_t>(event)];
    if (!e.is(model::Tag::R) || e.paddr < 0) return "its non-exit values";
    const z3::expr v = m.eval(program.valueOf(event), true);
    const auto n = static_cast<std::int64_t>(v.is_numeral() ? v.get_numeral_uint64() : 0);
    const std::string value = !v.is_numeral() ? "?" : e.is(model::Tag::MB) ? model::mbar::describe(n) : std::to_string(n);
    return g_.physicalNames[static_cast<std::size_t>(e.paddr)] + "=" + value;
  }

  Hang stuckHang(const ProgramEncoding& program, const z3::model& m) const {
    Hang h;
    std::set<std::string> kinds;
    std::vector<bool> stuck(g_.threads.size(), false);
    for (const auto& p : program.stuckPoints()) {
      if (stuck[static_cast<std::size_t>(p.thread)] || !m.eval(p.when, true).is_true()) continue;
      stuck[static_cast<std::size_t>(p.thread)] = true;
      const std::string name = g_.threads[static_cast<std::size_t>(p.thread)].name;
      if (p.how == "spin") {
        const auto& loop = g_.threads[static_cast<std::size_t>(p.thread)].loops[static_cast<std::size_t>(p.loop)];
        const std::string label = p.event >= 0 ? g_.events[static_cast<std::size_t>(p.event)].label : "";
        h.threads.push_back({name, "spin", label, loop.pos, "the loop reads " + readText(program, m, p.event) + " forever and never exits"});
        const bool mbarrier = p.event >= 0 && g_.events[static_cast<std::size_t>(p.event)].is(model::Tag::MB);
        kinds.insert(mbarrier ? "mbarrier" : "spin");
      } else {
        const auto& e = g_.events[static_cast<std::size_t>(p.event)];
        h.threads.push_back({name, p.how, e.label, e.pos,
                             p.how == "barrier" ? "waits at the barrier forever: its generation never completes"
                                                : "its wait never succeeds: reads " + readText(program, m, p.event) + " forever"});
        kinds.insert(p.how == "barrier" ? "barrier" : e.is(model::Tag::CB) ? "cluster-barrier" : "await");
      }
    }
    const auto& ends = program.threadEnds();
    for (std::size_t t = 0; t < ends.size(); ++t)
      if (m.eval(ends[t].stopped, true).is_true())
        h.threads.push_back({g_.threads[t].name, "not-scheduled", "", {},
                             m.eval(ends[t].started, true).is_true() ? "not scheduled again" : "never scheduled"});
    h.kind = kinds.size() == 1 ? *kinds.begin() : "mixed";
    return h;
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
