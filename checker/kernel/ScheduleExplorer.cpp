// Directed sequentially consistent schedules of a whole launch (ScheduleExplorer.hpp): an interpreter of the
// launch's EventGraph, one node (instruction instance) of one thread at a time.
#include "checker/kernel/ScheduleExplorer.hpp"

#include <algorithm>
#include <random>
#include <set>
#include <tuple>

#include "checker/BarrierRules.hpp"
#include "checker/SpinLoops.hpp"

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// Tags of events outside the argument: asynchronous operations and non-generic proxies, cluster barriers, proxy
// fences, tensor memory, completion waits (their orders are not the schedule's order, or their semantics is not
// "read the latest write"). Synchronous mbarrier operations are in: each is an RMW (or a read) of the object's
// state as one integer whose terms the unroller gives, its wait's success marker is an event of the wait's
// instruction, and the model's mbarrier hooks (mb-incl, mb-links) only add scope inclusion and rf/rmw chains.
constexpr Tag kUnsupportedTags[] = {Tag::PF,    Tag::SUR,     Tag::TEX,   Tag::CON, Tag::ALIAS, Tag::ASYNC, Tag::TMAP,
                                    Tag::TMEM,  Tag::AS,      Tag::CB,    Tag::PFUNI, Tag::PFRANGE, Tag::AWAIT, Tag::GD,
                                    Tag::TCF,   Tag::WGF};

// Node executions per thread a schedule may take before it is dropped (a spin that other threads keep feeding).
constexpr std::size_t kStepsPerThread = 5000;

// Threads delayed one at a time by the directed schedules (clamped to the launch).
constexpr int kDelayed[] = {1, 31, 32, 63};

// One schedule being run: thread states, memory, barrier generations, and its trace.
class Execution {
  using Occurrence = ScheduleTrace::Occurrence;

 public:
  Execution(const KernelGraph& k, const std::map<int, std::vector<int>>& domains)
      : g_(k.graph()), domains_(domains), memory_(g_.initValues), threads_(g_.threads.size()) {
    trace_.events.resize(threads_.size());
    trace_.quietSpins.resize(threads_.size());
    trace_.writes.resize(memory_.size());
    for (std::size_t t = 0; t < threads_.size(); ++t) {
      threads_[t].regs = g_.threads[t].regInit;
      if (g_.threads[t].nodes.empty()) threads_[t].exited = true;
    }
  }

  enum class End : std::uint8_t { Complete, Stuck, Dropped };
  // Runs the strategy to its end: every thread exited, or none can run (stuck), or the schedule is dropped.
  End run(const ScheduleExplorer::Strategy& s, const model::Deadline& deadline) {
    const std::size_t bound = kStepsPerThread * std::max<std::size_t>(1, threads_.size());
    std::mt19937 random(s.seed);
    std::size_t next = 0;  // round robin: the next position in the order
    std::vector<int> runnable;
    for (std::size_t steps = 0;; ++steps) {
      if (steps > bound || ((steps & 4095) == 0 && deadline.passed())) return End::Dropped;
      int chosen = -1;
      if (s.seed) {
        runnable.clear();
        for (int t : s.order)
          if (ready(t)) runnable.push_back(t);
        if (!runnable.empty()) chosen = runnable[std::uniform_int_distribution<std::size_t>(0, runnable.size() - 1)(random)];
      } else {
        for (std::size_t i = 0; i < s.order.size() && chosen < 0; ++i) {
          const std::size_t at = s.roundRobin ? (next + i) % s.order.size() : i;
          if (ready(s.order[at])) {
            chosen = s.order[at];
            next = at + 1;
          }
        }
      }
      if (dropped_) return End::Dropped;
      if (chosen < 0)
        return std::all_of(threads_.begin(), threads_.end(), [](const ThreadState& t) { return t.exited; }) ? End::Complete
                                                                                                              : End::Stuck;
      if (!step(chosen)) return End::Dropped;
    }
  }

  // In a stuck schedule: the threads asleep in a spin, with the loop (index in the thread's loops) they spin in.
  std::vector<std::pair<int, int>> spinning() const {
    std::vector<std::pair<int, int>> out;
    for (std::size_t t = 0; t < threads_.size(); ++t) {
      if (!threads_[t].asleep) continue;
      const auto& loops = g_.threads[t].loops;
      for (std::size_t l = 0; l < loops.size(); ++l)
        if (loops[l].header == threads_[t].spinInstr) out.emplace_back(static_cast<int>(t), static_cast<int>(l));
    }
    return out;
  }

  ScheduledExecution result(std::string schedule) && {
    return {std::move(memory_), std::move(schedule), std::move(trace_), plainReads_};
  }
  void staleRead(int k) { staleRead_ = k; }

 private:
  struct ThreadState {
    int node = 0;
    std::size_t pos = 0;  // the next event of the node
    std::vector<std::int64_t> regs;
    std::map<int, std::int64_t> reads;  // the node's own reads
    bool exited = false;
    std::optional<std::pair<std::size_t, std::int64_t>> waiting;  // (barrier key, generation) the thread waits for
    std::optional<std::pair<std::size_t, std::int64_t>> arrived;  // its last arrival
    std::size_t checkedAt = SIZE_MAX;  // the barrier version at which its wait was found incomplete
    // A spin: the thread came back to a loop header with the same registers and memory as the last time.
    std::size_t spinChanges = SIZE_MAX;
    int spinInstr = -1;
    std::vector<std::int64_t> spinRegs;
    bool asleep = false;
    std::map<int, std::size_t> iterationStart;  // per loop: the position in its trace where the iteration began
  };
  using Key = std::tuple<int, std::int64_t, std::int64_t, bool>;  // domain, id, count (-1: all), aligned
  struct Barrier {
    Key key;
    std::map<int, std::int64_t> arrivals;      // All: per thread, how many times it arrived
    std::vector<std::set<int>> generations;    // Counted: the arrivals of each generation, the last one open
    std::set<std::int64_t> complete;           // generations found complete
    std::map<std::int64_t, std::size_t> traced;  // generation -> its index in the trace
  };

  bool ready(int t) {
    ThreadState& s = threads_[static_cast<std::size_t>(t)];
    if (s.exited) return false;
    if (s.asleep) {
      if (changes_ == s.spinChanges) return false;
      s.asleep = false;
    }
    if (!s.waiting) return true;
    if (s.checkedAt == version_) return false;
    const auto [b, generation] = *s.waiting;
    const std::optional<bool> done = complete(barriers_[b], generation);
    if (!done) return dropped_ = true, true;  // step() drops the schedule
    if (!*done) {
      s.checkedAt = version_;
      return false;
    }
    s.waiting.reset();
    return true;
  }

  // Whether a generation is complete; nothing when it completed through an exit at an aligned barrier (undefined
  // behaviour: not an execution to report).
  std::optional<bool> complete(Barrier& b, std::int64_t generation) {
    if (b.complete.count(generation)) return true;
    const auto& [domain, id, count, aligned] = b.key;
    if (count >= 0) {
      const bool done = generation + 1 < static_cast<std::int64_t>(b.generations.size());
      if (done) b.complete.insert(generation);
      return done;
    }
    // All: generation k holds the k-th arrival of every thread of the domain; an exited thread releases it. Waiting
    // for every thread of the domain, not only the model's users of the barrier, only drops more schedules.
    bool throughExit = false;
    for (int t : domains_.at(domain)) {
      const auto it = b.arrivals.find(t);
      if (it != b.arrivals.end() && it->second > generation) continue;
      if (!threads_[static_cast<std::size_t>(t)].exited) return false;
      throughExit = true;
    }
    if (throughExit && aligned) return std::nullopt;
    b.complete.insert(generation);
    return true;
  }

  std::optional<std::int64_t> evaluate(const model::ValuePtr& term, const ThreadState& s) const {
    using R = std::optional<std::int64_t>;
    return model::value::fold<R>(
        term, [](const model::ValuePtr&) { return false; },
        [&](const model::ValuePtr& p) -> R {
          switch (p->op) {
            case model::ValueOp::Const: return p->constant;
            case model::ValueOp::Reg: return s.regs.at(static_cast<std::size_t>(p->index));
            case model::ValueOp::Read: {
              const auto it = s.reads.find(p->index);
              return it == s.reads.end() ? R{} : R{it->second};
            }
            default: return R{};
          }
        },
        [&](const model::ValuePtr& p, const R* args) -> R {
          if (p->op == model::ValueOp::Opaque) return R{};  // a value ptxmm does not compute
          std::vector<std::int64_t> v;
          for (int i = 0; i < model::value::arity(p->op); ++i) {
            if (!args[i]) return R{};
            v.push_back(*args[i]);
          }
          if ((p->op == model::ValueOp::Div || p->op == model::ValueOp::Rem) && v[1] == 0) return R{};  // unspecified
          return model::value::applyConcrete(p->op, v);
        });
  }

  // Runs the rest of the thread's current node; false drops the schedule.
  bool step(int t) {
    if (dropped_) return false;
    ThreadState& s = threads_[static_cast<std::size_t>(t)];
    const model::ThreadGraph& tg = g_.threads[static_cast<std::size_t>(t)];
    const model::Node& node = tg.nodes[static_cast<std::size_t>(s.node)];
    auto& executed = trace_.events[static_cast<std::size_t>(t)];
    if (s.pos == 0 && node.startsIterationOf >= 0) s.iterationStart[node.startsIterationOf] = executed.size();
    for (; s.pos < node.events.size(); ++s.pos) {
      const int e = node.events[s.pos];
      const model::Event& ev = g_.events[static_cast<std::size_t>(e)];
      if (ev.existsIf) {
        const auto happens = evaluate(ev.existsIf, s);
        if (!happens) return false;
        if (*happens == 0) continue;
      }
      const Occurrence here{t, static_cast<int>(executed.size())};
      executed.push_back(e);
      if (ev.is(Tag::R) && !read(s, node, here, ev)) return false;
      if (ev.is(Tag::W)) {
        const auto v = evaluate(ev.value, s);
        if (!v) return false;
        std::int64_t& cell = memory_[static_cast<std::size_t>(ev.paddr)];
        changes_ += cell != *v;
        cell = *v;
        trace_.writes[static_cast<std::size_t>(ev.paddr)].push_back(here);
        trace_.values[here] = *v;
      }
      if (ev.is(Tag::F) && ev.is(Tag::SC)) trace_.scFences.push_back(here);
      if (ev.is(Tag::BA) && !arrive(t, ev, here)) return false;
      if (ev.is(Tag::BW)) {
        if (!s.arrived) return false;
        const auto [b, generation] = *s.arrived;
        for (auto& a : trace_.generations[barriers_[b].traced.at(generation)])
          if (a.arrive.first == t && !a.wait) a.wait = here;
        s.waiting = s.arrived;
        s.checkedAt = SIZE_MAX;
        ++s.pos;
        return true;  // the wait is over when ready() finds its generation complete
      }
    }
    std::vector<std::pair<int, std::int64_t>> assigned;
    for (const auto& [reg, term] : node.assigns) {
      const auto v = evaluate(term, s);
      if (!v) return false;
      assigned.emplace_back(reg, *v);
    }
    for (const auto& [reg, v] : assigned) s.regs[static_cast<std::size_t>(reg)] = v;
    bool taken = false;
    if (node.branch) {
      const auto v = evaluate(node.branch, s);
      if (!v) return false;
      taken = *v != 0;
    }
    s.reads.clear();
    s.pos = 0;
    const model::Edge edge = taken ? node.taken : node.next;
    if (edge.target == model::Edge::kEnd) {
      s.exited = true;
      ++version_;
      return true;
    }
    const int target = edge.target >= 0 ? edge.target : sameIteration(tg, node, edge.backEdgeOf);
    if (target < 0) return false;
    if (edge.backEdgeOf >= 0) {
      spinCheck(s, tg.nodes[static_cast<std::size_t>(target)].instr);
      quietIteration(t, s, edge.backEdgeOf);
    }
    s.node = target;
    return true;
  }

  // The read of event `ev`: the latest write of its location, or for the chosen stale read the one before it.
  bool read(ThreadState& s, const model::Node& node, const Occurrence& here, const model::Event& ev) {
    const auto& writes = trace_.writes[static_cast<std::size_t>(ev.paddr)];
    const bool rmw = s.pos + 1 < node.events.size() &&
                     g_.events[static_cast<std::size_t>(node.events[s.pos + 1])].is(Tag::W) &&
                     g_.events[static_cast<std::size_t>(node.events[s.pos + 1])].paddr == ev.paddr;
    std::size_t back = 0;  // how many writes before the latest
    if (!rmw && !ev.is(Tag::MB) && static_cast<int>(plainReads_++) == staleRead_) back = 1;
    if (back > writes.size()) return false;  // no older write than the initial one
    const Occurrence source = writes.size() == back ? Occurrence{-1, ev.paddr} : writes[writes.size() - 1 - back];
    trace_.rf[here] = source;
    s.reads[node.events[s.pos]] =
        source.first < 0 ? g_.initValues[static_cast<std::size_t>(ev.paddr)] : trace_.values.at(source);
    return true;
  }

  // A loop iteration going back to its head with no observable event (SpinLoops.hpp) is one the engines'
  // paths leave out; the trace marks it so the witness can too.
  void quietIteration(int t, ThreadState& s, int loop) {
    const auto start = s.iterationStart.find(loop);
    if (start == s.iterationStart.end()) return;
    const auto& executed = trace_.events[static_cast<std::size_t>(t)];
    for (std::size_t i = start->second; i < executed.size(); ++i)
      if (observableEvent(g_, executed[i])) return;
    trace_.quietSpins[static_cast<std::size_t>(t)].emplace_back(static_cast<int>(start->second), static_cast<int>(executed.size()));
  }

  // A back edge past the unrolling bound: the node that starts the loop's last unrolled iteration runs the same
  // instructions with the same registers (a node's effects are terms over the registers before it).
  static int sameIteration(const model::ThreadGraph& tg, const model::Node& from, int loop) {
    if (loop < 0) return -1;
    const model::LoopInfo& l = tg.loops[static_cast<std::size_t>(loop)];
    for (std::size_t n = 0; n < tg.nodes.size(); ++n) {
      const model::Node& c = tg.nodes[n];
      if (c.instr != l.header) continue;
      bool same = true;
      for (std::size_t o = 0; o < c.iteration.size() && same; ++o) {
        const bool headerIn = tg.loops[o].header <= l.header && l.header <= tg.loops[o].last;
        same = headerIn ? c.iteration[o] == from.iteration[o] : c.iteration[o] < 0;
      }
      if (same) return static_cast<int>(n);
    }
    return -1;
  }

  // A thread back at a loop header with the registers and memory of its last visit repeats itself: it sleeps
  // until some write changes memory (a test-and-set spin writes back what it read: that wakes no one).
  void spinCheck(ThreadState& s, int instr) {
    if (s.spinChanges == changes_ && s.spinInstr == instr && s.spinRegs == s.regs) {
      s.asleep = true;
      return;
    }
    s.spinChanges = changes_;
    s.spinInstr = instr;
    s.spinRegs = s.regs;
  }

  bool arrive(int t, const model::Event& ev, const Occurrence& here) {
    const ThreadState& s = threads_[static_cast<std::size_t>(t)];
    const model::BarrierSpec& spec = *ev.barrier;
    const auto id = evaluate(spec.id, s);
    std::optional<std::int64_t> count = -1;
    if (spec.count) count = evaluate(spec.count, s);
    if (!id || !count) return false;
    if (spec.count && !countedSize(g_, *count)) return false;  // never completes: the thread would hang
    const Key key{g_.barrierDomain(ev), *id, spec.count ? *countedSize(g_, *count) : -1, spec.aligned};
    auto [it, inserted] = barrierIndex_.emplace(key, barriers_.size());
    if (inserted) barriers_.push_back({key, {}, {{}}, {}, {}});
    Barrier& b = barriers_[it->second];
    std::int64_t generation;
    if (std::get<2>(key) >= 0) {
      // Counted: any `count` arrivals of distinct threads make a generation; a second arrival of a thread in the
      // open generation is not followed (the model would need it in a later one).
      auto& open = b.generations.back();
      if (!open.insert(t).second) return false;
      generation = static_cast<std::int64_t>(b.generations.size() - 1);
      if (static_cast<std::int64_t>(open.size()) == std::get<2>(key)) b.generations.emplace_back();
    } else {
      generation = b.arrivals[t]++;
    }
    threads_[static_cast<std::size_t>(t)].arrived = std::pair{it->second, generation};
    auto [traced, fresh] = b.traced.emplace(generation, trace_.generations.size());
    if (fresh) trace_.generations.emplace_back();
    trace_.generations[traced->second].push_back(ScheduleTrace::Arrival{here, std::nullopt});
    ++version_;
    return true;
  }

  const model::EventGraph& g_;
  const std::map<int, std::vector<int>>& domains_;
  std::vector<std::int64_t> memory_;
  std::vector<ThreadState> threads_;
  std::map<Key, std::size_t> barrierIndex_;
  std::vector<Barrier> barriers_;
  std::size_t changes_ = 0;  // writes that changed memory so far (they wake sleeping spinners)
  std::size_t version_ = 0;  // arrivals and exits so far (re-checks waits)
  bool dropped_ = false;
  ScheduleTrace trace_;
  std::size_t plainReads_ = 0;
  int staleRead_ = -1;
};

}  // namespace

ScheduleExplorer::ScheduleExplorer(const KernelGraph& kernel) : k_(kernel) {
  checkSupported();
  if (unsupported_.empty()) makeStrategies();
}

void ScheduleExplorer::checkSupported() {
  const model::EventGraph& g = k_.graph();
  const frontend::KernelProgram& kp = k_.kernel();
  if (!kp.incomplete.empty() || !kp.symbolic.empty())
    return void(unsupported_ = "some thread's residual code is not exact");
  std::vector<int> vaddrOf(g.physicalNames.size(), -1);
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    for (Tag t : kUnsupportedTags)
      if (ev.is(t)) return void(unsupported_ = "it uses " + ev.label + ", outside sequentially consistent schedules");
    if (ev.assume) return void(unsupported_ = "it uses " + ev.label + ", a blocking read");
    if (ev.barrier && (ev.barrier->quorum || ev.barrier->label)) return void(unsupported_ = "it uses a Dat3M barrier");
    if (ev.paddr >= 0) {
      int& v = vaddrOf[static_cast<std::size_t>(ev.paddr)];
      if (v >= 0 && v != ev.vaddr) return void(unsupported_ = "a location is accessed through two addresses");
      v = ev.vaddr;
    }
  }
  // Mixed sizes: two accessed locations of one buffer that overlap.
  std::set<std::tuple<int, std::int64_t, std::int64_t>> ranges;
  for (const KernelAccess& a : k_.accesses()) ranges.emplace(a.buffer, a.lo, a.hi);
  const std::tuple<int, std::int64_t, std::int64_t>* previous = nullptr;
  for (const auto& r : ranges) {
    if (previous && std::get<0>(*previous) == std::get<0>(r) && std::get<2>(*previous) > std::get<1>(r))
      return void(unsupported_ = "accesses of different sizes overlap");
    previous = &r;
  }
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    domainThreads_[g.threads[t].cta].push_back(static_cast<int>(t));
    domainThreads_[-1 - g.threads[t].warp].push_back(static_cast<int>(t));
  }
}

void ScheduleExplorer::makeStrategies() {
  const int n = static_cast<int>(k_.graph().threads.size());
  std::vector<int> ascending(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) ascending[static_cast<std::size_t>(t)] = t;
  std::vector<int> descending(ascending.rbegin(), ascending.rend());
  strategies_.push_back({"threads in ascending order, each until it blocks", ascending});
  strategies_.push_back({"threads in descending order, each until it blocks", descending});
  strategies_.push_back({"round robin, one instruction per thread", ascending, true});
  strategies_.push_back({"round robin in descending order", descending, true});
  // One thread, or one warp, or one CTA, last.
  auto delayed = [&](const std::string& what, const std::function<bool(int)>& late) {
    std::vector<int> order;
    for (int t : ascending)
      if (!late(t)) order.push_back(t);
    for (int t : ascending)
      if (late(t)) order.push_back(t);
    strategies_.push_back({what + " delayed, the others in ascending order, each until it blocks", order});
  };
  for (int d : kDelayed)
    if (d < n) delayed("thread " + std::to_string(d), [d](int t) { return t == d; });
  const auto& threads = k_.graph().threads;
  if (threads.size() > 1 && threads.back().warp != threads.front().warp)
    delayed("the first warp", [&](int t) { return threads[static_cast<std::size_t>(t)].warp == threads.front().warp; });
  if (threads.size() > 1 && threads.back().cta != threads.front().cta)
    delayed("the first CTA", [&](int t) { return threads[static_cast<std::size_t>(t)].cta == threads.front().cta; });
  for (unsigned seed = 1; seed <= 4; ++seed)
    strategies_.push_back({"random walk (seed " + std::to_string(seed) + ")", ascending, false, seed});
}

std::optional<ScheduledExecution> ScheduleExplorer::run(std::size_t schedule, const model::Deadline& deadline, int staleRead) const {
  if (!unsupported_.empty() || schedule >= strategies_.size()) return std::nullopt;
  Execution x(k_, domainThreads_);
  x.staleRead(staleRead);
  if (x.run(strategies_[schedule], deadline) != Execution::End::Complete) return std::nullopt;
  return std::move(x).result(strategies_[schedule].name);
}

std::map<std::pair<int, int>, std::string> ScheduleExplorer::spinsForever(const model::Deadline& deadline) const {
  std::map<std::pair<int, int>, std::string> out;
  if (!unsupported_.empty()) return out;
  const model::EventGraph& g = k_.graph();
  // A loop whose iteration has a barrier would, repeated, wait there for threads that are stuck themselves: the
  // thread still never leaves it, but the repetition argument below does not say so; such loops are left out.
  const auto barrierFree = [&](int t, int l) {
    for (const model::Node& node : g.threads[static_cast<std::size_t>(t)].nodes)
      if (node.iteration[static_cast<std::size_t>(l)] >= 0)
        for (int e : node.events)
          if (g.events[static_cast<std::size_t>(e)].barrier) return false;
    return true;
  };
  for (std::size_t s = 0; s < strategies_.size() && !deadline.passed(); ++s) {
    Execution x(k_, domainThreads_);
    if (x.run(strategies_[s], deadline) != Execution::End::Stuck) continue;
    for (const auto& spin : x.spinning())
      if (!out.count(spin) && barrierFree(spin.first, spin.second)) out.emplace(spin, strategies_[s].name);
  }
  return out;
}

std::optional<ScheduledExecution> ScheduleExplorer::find(const std::function<bool(const std::vector<std::int64_t>&)>& wanted,
                                                         const model::Deadline& deadline) const {
  for (std::size_t s = 0; s < strategies_.size() && !deadline.passed(); ++s)
    if (auto x = run(s, deadline); x && wanted(x->memory)) return x;
  return std::nullopt;
}

}  // namespace ptxmm::checker::kernel
