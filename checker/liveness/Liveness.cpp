// The explicit search for stuck executions (Liveness.hpp): per thread the paths that exit, block, spin, run into
// the bound or (under weaker progress models) stop, combined as the progress model admits, and every consistent
// combination whose polls read co-maximal writes reported as a hang.
#include "checker/liveness/Liveness.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include "checker/ExecutionSearch.hpp"
#include "checker/liveness/ClusterExitGap.hpp"
#include "checker/liveness/HangText.hpp"

namespace ptxmm::checker::liveness {
namespace {

using model::Tag;

ThreadStatus statusOf(const ThreadPath& p) {
  switch (p.end) {
    case PathEnd::Exit: return {ThreadState::Exited, true};
    case PathEnd::Barrier:
    case PathEnd::Await: return {ThreadState::Blocked, true};
    // A thread at the unrolling bound may still do anything: it is taken as running.
    case PathEnd::Spin:
    case PathEnd::Bound: return {ThreadState::Spinning, true};
    case PathEnd::Stopped: return {ThreadState::Stopped, p.started};
  }
  return {};
}

bool stuck(const ThreadPath& p) { return p.end == PathEnd::Barrier || p.end == PathEnd::Spin || p.end == PathEnd::Await; }

class Search {
 public:
  Search(const model::CatModel& model, const model::EventGraph& graph, const LivenessOptions& options)
      : g_(graph), options_(options), search_(model, options.limits, graph) {
    for (const auto& e : graph.events) aligned_ |= e.barrier && e.barrier->aligned;
    visibleDef_ = model.findDef(kEventuallyVisible);
  }

  LivenessResult run() {
    result_.model = options_.progress.name();
    result_.method = "explicit";
    const PathOptions want{true, !options_.progress.fair()};
    std::vector<std::vector<ThreadPath>> paths;
    for (std::size_t t = 0; t < g_.threads.size(); ++t) paths.push_back(enumeratePaths(g_, static_cast<int>(t), want));
    SearchVisitor visitor;
    visitor.keepDivergent = true;
    visitor.admit = [&](const std::vector<const ThreadPath*>& chosen) { return admit(chosen); };
    visitor.consistent = [&](const Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent) {
      consistent(x, thinAir, divergent);
    };
    visitor.barrierThinAir = [&] { undecided(thinAirReason()); };
    try {
      search_.run(paths, visitor);
    } catch (const SearchLimit& limit) {
      undecided(limit.reason);
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

 private:
  static std::string thinAirReason() {
    return "a candidate stuck execution has values that depend on themselves (out of thin air)";
  }

  void undecided(const std::string& reason) {
    if (!result_.decided) return;
    result_.decided = false;
    result_.reason = reason;
  }

  // A combination is worth a look when some thread is stuck or at the bound and the progress model admits the
  // schedule, or when every thread exits and an aligned barrier might have been completed by an exit.
  bool admit(const std::vector<const ThreadPath*>& chosen) const {
    const bool anyStuck = std::any_of(chosen.begin(), chosen.end(), [](const ThreadPath* p) { return stuck(*p); });
    const bool anyBound = std::any_of(chosen.begin(), chosen.end(), [](const ThreadPath* p) { return p->end == PathEnd::Bound; });
    if (!anyStuck && !anyBound)
      return aligned_ && std::all_of(chosen.begin(), chosen.end(), [](const ThreadPath* p) { return p->end == PathEnd::Exit; });
    std::vector<ThreadStatus> status;
    for (const ThreadPath* p : chosen) status.push_back(statusOf(*p));
    return admits(options_.progress, g_, status);
  }

  // Memory fairness: each poll reads a write no other eventually visible write is co-after, except the writes of
  // the repeated iteration itself (an RMW poll writes back what it read).
  bool fair(const Execution& x) {
    const auto& co = x.candidate().rel(model::BaseRel::Co);
    const model::BitMatrix* visible = nullptr;  // the evaluator's value for this candidate: read, not copied
    if (visibleDef_ >= 0)
      visible = std::get_if<model::BitMatrix>(&search_.evaluator().definition(static_cast<std::size_t>(visibleDef_)));
    hidden_.assign(x.paths().size(), {});
    for (std::size_t t = 0; t < x.paths().size(); ++t) {
      const ThreadPath* p = x.paths()[t];
      if (p->polls.empty()) continue;
      std::set<std::size_t> own;
      for (std::size_t i = p->stuckFrom; i < p->events.size() && p->end == PathEnd::Spin; ++i) own.insert(*x.local(p->events[i]));
      for (int r : p->polls) {
        const std::size_t w = x.readsFrom(*x.local(r));
        for (std::size_t later = 0; later < x.size(); ++later) {
          if (!co.test(w, later) || own.count(later)) continue;
          if (!visible || visible->test(later, *x.local(r))) return false;
          hidden_[t].push_back(later);
        }
      }
    }
    return true;
  }

  // Why a stuck poll need not see the later writes fair() let it miss, in words (empty when there are none).
  std::string hiddenText(const Execution& x, std::size_t thread) const {
    std::vector<int> writes;
    for (std::size_t w : hidden_[thread]) writes.push_back(x.global(w));
    return hiddenWritesText(g_, writes);
  }

  void consistent(const Execution& x, bool thinAir, const std::vector<DivergentRelease>& divergent) {
    const auto& paths = x.paths();
    const bool allExit = std::all_of(paths.begin(), paths.end(), [](const ThreadPath* p) { return p->end == PathEnd::Exit; });
    if (allExit) {
      if (!divergent.empty() && !thinAir) record(divergentHang(x, divergent));
      return;
    }
    if (thinAir) return undecided(thinAirReason());
    if (!fair(x)) return;
    if (!divergent.empty()) record(divergentHang(x, divergent));
    for (std::size_t t = 0; t < paths.size(); ++t)
      if (paths[t]->end == PathEnd::Bound) {
        const auto& loop = g_.threads[t].loops[static_cast<std::size_t>(paths[t]->boundLoop)];
        return undecided("a candidate stuck execution needs more than " + std::to_string(g_.unrollBound) +
                         " iterations of the loop of " + g_.threads[t].name + " ending at " + at(loop.pos) +
                         " (raise --unroll)");
      }
    record(stuckHang(x));
  }

  // The values a thread's polls keep reading, as "flag=0".
  std::string pollText(const Execution& x, const ThreadPath& p) const {
    std::vector<std::string> items;
    for (int r : p.polls) items.push_back(pollItem(g_, r, x.value(*x.local(r))));
    return joinItems(items);
  }

  Hang stuckHang(const Execution& x) const {
    Hang h;
    std::set<std::string> kinds;
    const auto& paths = x.paths();
    for (std::size_t t = 0; t < paths.size(); ++t) {
      const ThreadPath& p = *paths[t];
      const std::string name = g_.threads[t].name;
      switch (p.end) {
        case PathEnd::Barrier: {
          const auto& e = g_.events[static_cast<std::size_t>(p.stuckEvent)];
          h.threads.push_back({name, "barrier", e.label, e.pos, "waits at the barrier forever: its generation never completes"});
          kinds.insert("barrier");
          break;
        }
        case PathEnd::Await: {
          const auto& e = g_.events[static_cast<std::size_t>(p.stuckEvent)];
          const std::string hidden = hiddenText(x, t);
          h.threads.push_back({name, "await", e.label, e.pos,
                               "its wait never succeeds: reads " + pollText(x, p) + " forever" + (hidden.empty() ? "" : ": " + hidden)});
          kinds.insert(e.is(Tag::CB) ? "cluster-barrier" : "await");
          break;
        }
        case PathEnd::Spin: {
          const auto& loop = g_.threads[t].loops[static_cast<std::size_t>(p.stuckLoop)];
          bool mbarrier = !p.polls.empty();
          for (int r : p.polls) mbarrier &= g_.events[static_cast<std::size_t>(r)].is(Tag::MB);
          const auto& first = g_.events[static_cast<std::size_t>(p.polls.empty() ? p.events.back() : p.polls.front())];
          const std::string hidden = hiddenText(x, t);
          h.threads.push_back({name, "spin", first.label, loop.pos,
                               "the loop reads " + (p.polls.empty() ? std::string("nothing that changes") : pollText(x, p)) +
                                   " forever and never exits" + (hidden.empty() ? "" : ": " + hidden)});
          kinds.insert(mbarrier ? "mbarrier" : "spin");
          break;
        }
        case PathEnd::Stopped:
          h.threads.push_back(stoppedThread(g_, static_cast<int>(t), !p.started || p.events.empty() ? -1 : p.events.back()));
          break;
        case PathEnd::Exit:
        case PathEnd::Bound: break;
      }
    }
    h.kind = kinds.size() == 1 ? *kinds.begin() : "mixed";
    return h;
  }

  Hang divergentHang(const Execution& x, const std::vector<DivergentRelease>& divergent) const {
    Hang h;
    h.kind = "divergent-barrier";
    const auto arrivals = x.arrivals();
    for (const auto& d : divergent) {
      const auto& e = x.event((*arrivals)[d.arrival].arrive);
      h.threads.push_back({g_.threads[static_cast<std::size_t>(e.thread)].name, "barrier", e.label, e.pos,
                           "an aligned barrier (bar = barrier.aligned) reached from divergent code: undefined behaviour"});
      h.threads.push_back({g_.threads[static_cast<std::size_t>(d.thread)].name, "exited", "", {},
                           "exited without reaching it, which completed it"});
    }
    return h;
  }

  void record(Hang h) {
    if (seen_.insert(patternKey(h)).second) result_.hangs.push_back(std::move(h));
  }

  const model::EventGraph& g_;
  const LivenessOptions& options_;
  ExecutionSearch search_;
  LivenessResult result_;
  std::set<std::string> seen_;
  bool aligned_ = false;
  int visibleDef_ = -1;             // the model's eventually-visible definition, if it has one
  std::vector<std::vector<std::size_t>> hidden_;  // fair(), per thread: co-later writes its polls need not see (local ids)
};

}  // namespace

bool canWait(const model::EventGraph& graph) {
  for (const auto& e : graph.events)
    if (e.barrier || e.assume) return true;
  return std::any_of(graph.threads.begin(), graph.threads.end(), [](const auto& t) { return !t.loops.empty(); });
}

LivenessResult checkLiveness(const model::CatModel& model, const model::EventGraph& graph, const LivenessOptions& options) {
  if (!canWait(graph)) {
    LivenessResult r;
    r.model = options.progress.name();
    r.method = "explicit";
    return r;
  }
  return Search(model, graph, options).run();
}

}  // namespace ptxmm::checker::liveness
