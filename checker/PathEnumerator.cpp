// Depth-first symbolic execution of a thread's node DAG (PathEnumerator.hpp), without recursion.
#include "checker/PathEnumerator.hpp"

#include <algorithm>

#include "checker/SpinLoops.hpp"

namespace ptxmm::checker {
namespace {

using model::Edge;
using model::ValuePtr;
namespace value = model::value;

std::vector<int> readsOf(const ValuePtr& term) {
  std::vector<int> out;
  value::collectReads(term, out);
  return out;
}

bool isConstant(const ValuePtr& t) { return t->op == model::ValueOp::Const; }

// Depth first with an explicit stack of pending alternatives (a thread may have thousands of instructions, so
// no recursion per node): at a fork the second alternative is pushed and the first continued at once, so paths
// come out in the order a recursive walk would give them.
class Walker {
 public:
  Walker(const model::EventGraph& g, int thread, PathOptions options)
      : g_(g), t_(g.threads[static_cast<std::size_t>(thread)]), options_(options) {}

  std::vector<ThreadPath> run() {
    State s;
    for (auto v : t_.regInit) s.regs.push_back(value::constant(v));
    s.iterEventStart.assign(t_.loops.size(), 0);
    s.iterAssignStart.assign(t_.loops.size(), 0);
    if (t_.nodes.empty()) {
      s.path.finalRegisters = s.regs;
      out_.push_back(std::move(s.path));
      return std::move(out_);
    }
    if (options_.stopped) {
      State never = s;
      never.path.started = false;
      emit(std::move(never), PathEnd::Stopped);
    }
    enter(0, s);
    pending_.push_back({nullptr, 0, 0, std::move(s)});
    while (!pending_.empty()) {
      Task task = std::move(pending_.back());
      pending_.pop_back();
      if (task.edge)
        follow(*task.edge, std::move(task.state));
      else
        walkNode(task.node, task.event, std::move(task.state));
    }
    return std::move(out_);
  }

 private:
  struct State {
    ThreadPath path;
    std::vector<ValuePtr> regs;
    std::vector<int> controllingReads;  // reads some earlier branch or cas of this path depends on
    std::vector<int> assignLog;         // registers assigned, in order
    std::vector<std::size_t> iterEventStart;
    std::vector<std::size_t> iterAssignStart;
  };

  // An alternative still to explore: follow `edge`, or (edge null) go on with node `node` from its event `event`.
  struct Task {
    const Edge* edge;
    int node;
    std::size_t event;
    State state;
  };

  // Entering a node that starts a loop iteration marks where the iteration's events and assignments begin.
  void enter(int nodeIndex, State& s) const {
    const model::Node& node = t_.nodes[static_cast<std::size_t>(nodeIndex)];
    if (node.startsIterationOf >= 0) {
      s.iterEventStart[static_cast<std::size_t>(node.startsIterationOf)] = s.path.events.size();
      s.iterAssignStart[static_cast<std::size_t>(node.startsIterationOf)] = s.assignLog.size();
    }
  }

  // Records what the path assumes; a branch (`controlsLater`) makes every later event ctrl-dependent on the
  // reads it tests, a compare-and-swap only its own write half.
  void assume(State& s, const ValuePtr& term, bool holds, bool controlsLater) {
    s.path.assumptions.push_back({term, holds});
    if (!controlsLater) return;
    for (int r : readsOf(term))
      if (std::find(s.controllingReads.begin(), s.controllingReads.end(), r) == s.controllingReads.end())
        s.controllingReads.push_back(r);
  }

  // The events of a node from `k` on, forking where an event happens only under a condition (cas): the path
  // without the event is continued here, the one with it is pushed.
  void walkNode(int nodeIndex, std::size_t k, State s) {
    const model::Node& node = t_.nodes[static_cast<std::size_t>(nodeIndex)];
    for (; k < node.events.size(); ++k) {
      const int e = node.events[k];
      const model::Event& ev = g_.events[static_cast<std::size_t>(e)];
      if (ev.existsIf) {
        const ValuePtr cond = value::substitute(ev.existsIf, s.regs);
        if (isConstant(cond)) {
          if (cond->constant == 0) continue;
        } else {
          State happens = s;
          for (int r : readsOf(cond)) happens.path.ctrl.emplace_back(r, e);
          assume(happens, cond, true, false);
          if (perform(ev, e, happens)) pending_.push_back({nullptr, nodeIndex, k + 1, std::move(happens)});
          assume(s, cond, false, false);
          continue;
        }
      }
      // The thread may stay blocked at a barrier's wait half: its arrive half is the event before.
      if (options_.stuck && ev.is(model::Tag::BW) && k > 0) {
        State blocked = s;
        blocked.path.stuckEvent = node.events[k - 1];
        emit(std::move(blocked), PathEnd::Barrier);
      }
      if (!perform(ev, e, s)) return;
    }
    afterEvents(node, std::move(s));
  }

  // Adds an event that happens to the path; false when the path blocks there for good (a blocking event,
  // barrier.cluster.wait, whose condition is false: executions where it never holds do not terminate).
  bool perform(const model::Event& ev, int e, State& s) {
    ValuePtr blocking;  // the condition of a blocking event that is not decided yet
    if (ev.assume) {
      const ValuePtr cond = value::substitute(ev.assume, s.regs);
      if (options_.stuck && !(isConstant(cond) && cond->constant != 0)) awaitForever(e, cond, s);
      if (isConstant(cond) && cond->constant == 0) return false;
      if (!isConstant(cond)) blocking = cond;
    }
    s.path.events.push_back(e);
    for (int r : s.controllingReads) s.path.ctrl.emplace_back(r, e);
    // Like the spin loop it stands for (design.md, spin loops are awaits), a blocking event controls what follows
    // it: nothing after the wait happens before the wait succeeds (ctrl, NoThinAir).
    if (blocking) assume(s, blocking, true, true);
    if (ev.value && ev.is(model::Tag::W)) {
      const ValuePtr v = value::substitute(ev.value, s.regs);
      for (int r : readsOf(v)) s.path.data.emplace_back(r, e);
      s.path.writeValues.emplace_back(e, v);
    }
    if (ev.barrier) {
      const model::ValuePtr& size = ev.barrier->count ? ev.barrier->count : ev.barrier->quorum;
      PathBarrier b{e, value::substitute(ev.barrier->id, s.regs), size ? value::substitute(size, s.regs) : nullptr};
      for (const ValuePtr* t : {&b.id, &b.size})
        if (*t)
          for (int r : readsOf(*t)) s.path.data.emplace_back(r, e);
      s.path.barriers.push_back(std::move(b));
    }
    return true;
  }

  // Assignments, then the successor; at a branch on a read value the taken side is pushed.
  void afterEvents(const model::Node& node, State s) {
    std::vector<std::pair<int, ValuePtr>> updates;
    for (const auto& [reg, term] : node.assigns) updates.emplace_back(reg, value::substitute(term, s.regs));
    for (auto& [reg, term] : updates) {
      s.regs[static_cast<std::size_t>(reg)] = std::move(term);
      s.assignLog.push_back(reg);
    }
    if (!node.branch) return follow(node.next, std::move(s));
    const ValuePtr cond = value::substitute(node.branch, s.regs);
    if (isConstant(cond)) return follow(cond->constant != 0 ? node.taken : node.next, std::move(s));
    State taken = s;
    assume(taken, cond, true, true);
    pending_.push_back({&node.taken, 0, 0, std::move(taken)});
    assume(s, cond, false, true);
    follow(node.next, std::move(s));
  }

  // The thread stays at blocking read `e` forever: it reads the co-latest write and the condition fails.
  void awaitForever(int e, const ValuePtr& cond, State s) {
    s.path.events.push_back(e);
    for (int r : s.controllingReads) s.path.ctrl.emplace_back(r, e);
    if (!isConstant(cond)) assume(s, cond, false, false);
    s.path.stuckEvent = e;
    s.path.polls = {e};
    emit(std::move(s), PathEnd::Await);
  }

  // Ends a path as `end` (a copy of the state, so the walk may go on with it).
  void emit(State s, PathEnd end) {
    s.path.end = end;
    s.path.finalRegisters = s.regs;
    out_.push_back(std::move(s.path));
  }

  // When the iteration of `loop` going back to its head here is unobservable (SpinLoops.hpp): null when never,
  // the constant 1 when always, otherwise a term over reads — its write-back candidates wrote what they read.
  ValuePtr unobservableIteration(const State& s, int loop) const {
    const auto& info = t_.loops[static_cast<std::size_t>(loop)];
    for (std::size_t i = s.iterAssignStart[static_cast<std::size_t>(loop)]; i < s.assignLog.size(); ++i)
      if (observableAssignment(info, s.assignLog[i])) return nullptr;
    ValuePtr when = value::constant(1);
    for (std::size_t i = s.iterEventStart[static_cast<std::size_t>(loop)]; i < s.path.events.size(); ++i) {
      const int e = s.path.events[i];
      if (!observableEvent(g_, e)) continue;
      if (!writeBackCandidate(g_, e)) return nullptr;
      const auto written = std::find_if(s.path.writeValues.rbegin(), s.path.writeValues.rend(),
                                        [&](const auto& wv) { return wv.first == e; });
      const ValuePtr same = value::apply(model::ValueOp::Eq, {written->second, value::read(rmwRead(g_, e))});
      when = isConstant(when) ? same : value::apply(model::ValueOp::LAnd, {when, same});
      if (isConstant(when) && when->constant == 0) return nullptr;
    }
    return when;
  }

  // The path repeats the unobservable iteration of `loop` that ends here: dropped, or (liveness) a thread that
  // repeats it forever, its reads polling the co-latest writes.
  void repeatForever(State s, int loop) {
    if (!options_.stuck) return;
    const std::size_t from = s.iterEventStart[static_cast<std::size_t>(loop)];
    for (std::size_t i = from; i < s.path.events.size(); ++i)
      if (g_.events[static_cast<std::size_t>(s.path.events[i])].is(model::Tag::R)) s.path.polls.push_back(s.path.events[i]);
    s.path.stuckLoop = loop;
    s.path.stuckFrom = from;
    emit(std::move(s), PathEnd::Spin);
  }

  // Ends the path, or continues it at the edge's target (pushed, so the walk never nests). An iteration that is
  // unobservable only for some values forks: the path that assumes it wrote back what it read repeats it, the
  // other goes on.
  void follow(const Edge& edge, State s) {
    if (edge.backEdgeOf >= 0)
      if (const ValuePtr quiet = unobservableIteration(s, edge.backEdgeOf)) {
        if (isConstant(quiet)) return repeatForever(std::move(s), edge.backEdgeOf);
        State repeats = s;
        assume(repeats, quiet, true, false);
        repeatForever(std::move(repeats), edge.backEdgeOf);
        assume(s, quiet, false, false);
      }
    if (edge.target == Edge::kBound || edge.target == Edge::kEnd) {
      if (edge.target == Edge::kBound) s.path.boundLoop = edge.backEdgeOf;
      emit(std::move(s), edge.target == Edge::kBound ? PathEnd::Bound : PathEnd::Exit);
      return;
    }
    if (options_.stopped) emit(s, PathEnd::Stopped);
    enter(edge.target, s);
    pending_.push_back({nullptr, edge.target, 0, std::move(s)});
  }

  const model::EventGraph& g_;
  const model::ThreadGraph& t_;
  PathOptions options_;
  std::vector<Task> pending_;
  std::vector<ThreadPath> out_;
};

}  // namespace

std::vector<ThreadPath> enumeratePaths(const model::EventGraph& graph, int thread, PathOptions options) {
  return Walker(graph, thread, options).run();
}

}  // namespace ptxmm::checker
