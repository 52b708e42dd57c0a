// Schedules with a stale read, replayed by the model (WeakWitness.hpp).
#include "checker/kernel/WeakWitness.hpp"

#include <algorithm>
#include <map>

#include "checker/WitnessReplay.hpp"

namespace ptxmm::checker::kernel {
namespace {

// Beyond this many executed events the explicit evaluator's matrices are not worth building.
constexpr std::size_t kMaxEvents = 1000;
// Base schedules, stale reads per schedule and replays tried by findWeak.
constexpr std::size_t kSchedules = 4;
constexpr int kReadsPerSchedule = 256;
constexpr int kReplays = 4;

using Occurrence = ScheduleTrace::Occurrence;

// Where an event sits: its instruction and its position among its node's events (the same for every unrolled
// copy of the instruction).
std::pair<int, int> slotOf(const model::EventGraph& g, int e) {
  const model::Event& ev = g.events[static_cast<std::size_t>(e)];
  const model::Node& n = g.threads[static_cast<std::size_t>(ev.thread)].nodes[static_cast<std::size_t>(ev.node)];
  return {n.instr, static_cast<int>(std::find(n.events.begin(), n.events.end(), e) - n.events.begin())};
}

std::size_t eventsOf(const ScheduledExecution& x) {
  std::size_t size = 0;
  for (const auto& e : x.trace.events) size += e.size();
  return size;
}

class Rebuild {
 public:
  Rebuild(const KernelGraph& k, const ScheduledExecution& x) : k_(k), g_(k.graph()), x_(x) {}

  std::optional<Witness> witness(std::vector<std::vector<ThreadPath>>& paths, std::string& why) {
    const std::size_t size = eventsOf(x_);
    if (size > kMaxEvents) return why = "its " + std::to_string(size) + " events are more than the evaluator is given", std::nullopt;
    for (std::size_t i = 0; i < g_.initCount(); ++i) initOf_[g_.events[i].paddr] = static_cast<int>(i);
    Witness w;
    for (std::size_t t = 0; t < g_.threads.size(); ++t) {
      const ThreadPath* p = pathOf(static_cast<int>(t));
      if (!p) return why = "thread " + g_.threads[t].name + " follows no path of the engines", std::nullopt;
      paths.push_back({*p});
      w.threadEvents.push_back(p->events);
    }
    for (const auto& [read, write] : x_.trace.rf)
      if (const auto r = eventOf(read)) {
        const auto source = keptSource(write);
        if (!source) return why = "a read reads a write the paths leave out", std::nullopt;
        w.rf.emplace_back(*source, *r);
      }
    for (std::size_t loc = 0; loc < x_.trace.writes.size(); ++loc) {
      std::vector<int> order{initOf_.at(static_cast<int>(loc))};
      for (const Occurrence& o : x_.trace.writes[loc])
        if (const auto e = eventOf(o)) order.push_back(*e);
      for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j) w.co.emplace_back(order[i], order[j]);
    }
    for (const Occurrence& f : x_.trace.scFences)
      if (const auto e = eventOf(f)) w.fenceOrder.push_back(*e);
    for (const auto& generation : x_.trace.generations)
      for (const auto& a : generation)
        for (const auto& b : generation)
          if (a.arrive.first != b.arrive.first && b.wait) {
            const auto from = eventOf(a.arrive), to = eventOf(*b.wait);
            if (!from || !to) return why = "a barrier event is left out", std::nullopt;
            w.syncbar.emplace_back(*from, *to);
          }
    return w;
  }

  // The event the witness has for an occurrence, when its thread's path keeps it.
  std::optional<int> eventOf(const Occurrence& o) const {
    if (o.first < 0) return initOf_.at(o.second);
    const auto it = kept_.find(o);
    return it == kept_.end() ? std::nullopt : std::optional<int>(it->second);
  }

 private:
  // The engines' path of thread t that performs the trace's events outside quiet spin iterations, slot by slot,
  // and whose assumptions the values read satisfy.
  const ThreadPath* pathOf(int t) {
    const auto& executed = x_.trace.events[static_cast<std::size_t>(t)];
    std::vector<int> positions;
    for (int i = 0; i < static_cast<int>(executed.size()); ++i) {
      const auto& quiet = x_.trace.quietSpins[static_cast<std::size_t>(t)];
      if (std::none_of(quiet.begin(), quiet.end(), [i](const std::pair<int, int>& r) { return r.first <= i && i < r.second; }))
        positions.push_back(i);
    }
    for (const ThreadPath& p : k_.paths(t)) {
      if (p.boundLoop >= 0 || p.events.size() != positions.size()) continue;
      bool same = true;
      for (std::size_t i = 0; i < positions.size() && same; ++i)
        same = slotOf(g_, p.events[i]) == slotOf(g_, executed[static_cast<std::size_t>(positions[i])]);
      if (!same) continue;
      std::map<int, std::int64_t> values;  // the path's reads -> the values the schedule read
      for (std::size_t i = 0; i < positions.size(); ++i) {
        const auto rf = x_.trace.rf.find({t, positions[i]});
        if (rf != x_.trace.rf.end()) values[p.events[i]] = valueOf(rf->second);
      }
      const bool holds = std::all_of(p.assumptions.begin(), p.assumptions.end(), [&](const PathAssumption& a) {
        const auto v = model::value::evaluate(a.term, [&](int r) -> std::optional<std::int64_t> {
          const auto it = values.find(r);
          return it == values.end() ? std::nullopt : std::optional(it->second);
        });
        return v && (*v != 0) == a.holds;
      });
      if (!holds) continue;
      for (std::size_t i = 0; i < positions.size(); ++i) kept_[{t, positions[i]}] = p.events[i];
      return &p;
    }
    return nullptr;
  }

  std::int64_t valueOf(const Occurrence& write) const {
    return write.first < 0 ? g_.initValues[static_cast<std::size_t>(write.second)] : x_.trace.values.at(write);
  }

  // The write a read reads in the witness: its own, or, for a write-back of a quiet iteration (which leaves the
  // value unchanged, SpinLoops.hpp), the latest kept write before it.
  std::optional<int> keptSource(const Occurrence& write) const {
    if (const auto e = eventOf(write)) return e;
    const int paddr = g_.events[static_cast<std::size_t>(x_.trace.events[static_cast<std::size_t>(write.first)]
                                                             [static_cast<std::size_t>(write.second)])].paddr;
    const auto& order = x_.trace.writes[static_cast<std::size_t>(paddr)];
    const auto at = std::find(order.begin(), order.end(), write);
    for (auto it = at; it != order.begin();)
      if (const auto e = eventOf(*--it)) return e;
    return initOf_.at(paddr);
  }

  const KernelGraph& k_;
  const model::EventGraph& g_;
  const ScheduledExecution& x_;
  std::map<int, int> initOf_;          // physical location -> its initial write
  std::map<Occurrence, int> kept_;     // occurrence -> the path's event
};

}  // namespace

bool certify(const model::CatModel& model, const KernelGraph& kernel, const ScheduledExecution& x, std::string& why) {
  Rebuild rebuild(kernel, x);
  std::vector<std::vector<ThreadPath>> paths;
  const auto w = rebuild.witness(paths, why);
  if (!w) return false;
  const Replay r = replay(model, kernel.graph(), paths, *w);
  if (!r.execution || !r.failingChecks.empty()) return why = r.problem, false;
  // The replayed execution's final memory is the schedule's: the co-last write of each location.
  for (std::size_t loc = 0; loc < x.trace.writes.size(); ++loc) {
    if (x.trace.writes[loc].empty()) continue;
    const auto last = rebuild.eventOf(x.trace.writes[loc].back());
    const auto local = last ? r.execution->local(*last) : std::nullopt;
    if (!local || r.execution->value(*local) != x.memory[loc]) return why = "the replayed final memory differs", false;
  }
  return true;
}

std::optional<ScheduledExecution> findWeak(const model::CatModel& model, const KernelGraph& kernel, const ScheduleExplorer& explorer,
                                           const std::function<bool(const std::vector<std::int64_t>&)>& wanted,
                                           const model::Deadline& deadline) {
  if (!explorer.unsupported().empty()) return std::nullopt;
  int replays = 0;
  for (std::size_t s = 0; s < std::min(kSchedules, explorer.scheduleCount()); ++s) {
    const auto base = explorer.run(s, deadline);
    if (!base) continue;
    if (eventsOf(*base) > kMaxEvents) return std::nullopt;  // no replay would be tried
    const int reads = std::min(kReadsPerSchedule, static_cast<int>(base->plainReads));
    for (int k = 0; k < reads && replays < kReplays && !deadline.passed(); ++k) {
      auto x = explorer.run(s, deadline, k);
      if (!x || !wanted(x->memory)) continue;
      ++replays;
      std::string why;
      if (certify(model, kernel, *x, why)) {
        x->schedule += "; its read " + std::to_string(k) + " returns the write before the latest";
        return x;
      }
    }
  }
  return std::nullopt;
}

}  // namespace ptxmm::checker::kernel
