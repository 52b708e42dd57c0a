// Barrier arrivals per thread, generations, findings (BarrierPhases.hpp).
#include "checker/kernel/BarrierPhases.hpp"

#include <algorithm>
#include <bitset>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// `bar.sync` is `barrier.sync.aligned` (NOTES.md); the instruction as written says which form it is.
bool aligned(const frontend::Instruction& in) {
  return in.text.rfind("bar.", 0) == 0 || in.text.find(".aligned") != std::string::npos;
}

std::optional<std::int64_t> constantOf(const model::ValuePtr& v) {
  if (v && v->op == model::ValueOp::Const) return v->constant;
  return std::nullopt;
}

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

}  // namespace

BarrierPhases::BarrierPhases(const KernelGraph& kernel) : k_(kernel) {
  const std::size_t threads = k_.graph().threads.size();
  byThread_.resize(threads);
  cutoff_.assign(threads, -1);
  collect();
  for (auto& entry : barriers_) {
    analyse(entry.first, entry.second);
    if (entry.second.dynamic) continue;
    for (const auto& [t, list] : entry.second.arrivals) byThread_[static_cast<std::size_t>(t)].push_back(&entry);
  }
}

int BarrierPhases::warpOf(int thread) const {
  const auto& where = k_.kernel().threads[static_cast<std::size_t>(thread)];
  return where.cta * 64 + where.warp;  // a CTA has at most 32 warps
}

BarrierPhases::Key BarrierPhases::keyOf(int e) const {
  const model::Event& ev = k_.event(e);
  Key key;
  key.warp = ev.is(Tag::WBAR);
  key.domain = key.warp ? warpOf(ev.thread) : k_.kernel().threads[static_cast<std::size_t>(ev.thread)].cta;
  key.id = constantOf(ev.barrier->id).value_or(-1);
  return key;
}

bool BarrierPhases::isStatic(int e) const {
  const auto it = barriers_.find(keyOf(e));
  return it != barriers_.end() && !it->second.dynamic;
}

void BarrierPhases::collect() {
  const auto& g = k_.graph();
  for (std::size_t t = 0; t < g.threads.size(); ++t)
    for (std::size_t n = 0; n < g.threads[t].nodes.size(); ++n) {
      const model::Node& node = g.threads[t].nodes[n];
      for (int e : node.events) {
        const model::Event& ev = g.events[static_cast<std::size_t>(e)];
        if (!ev.is(Tag::BA)) continue;
        const Key key = keyOf(e);
        const auto id = constantOf(ev.barrier->id);
        Arrival a;
        a.node = static_cast<int>(n);
        a.arriveEvent = e;
        a.instr = node.instr;
        a.count = constantOf(ev.barrier->count);
        a.waits = std::any_of(node.events.begin(), node.events.end(),
                              [&](int w) { return g.events[static_cast<std::size_t>(w)].is(Tag::BW); });
        Barrier& b = barriers_[key];
        const bool exact = id && (!ev.barrier->count || a.count) && k_.unconditional(e) && !k_.inLoop(e);
        if (!exact && !b.dynamic) {
          b.dynamic = true;
          dynamic_.push_back("the barrier at " + lineOf(k_.position(e)) +
                             " is executed under a condition on memory values, inside a loop, or with an id or "
                             "thread count that depends on memory values: its generations are not static");
        }
        b.arrivals[static_cast<int>(t)].push_back(a);
      }
    }
}

std::optional<int> BarrierPhases::blockedBy(int t, int from, int u, bool& dynamic) const {
  std::optional<int> first;
  for (const auto* entry : byThread_[static_cast<std::size_t>(t)]) {
    const auto mine = entry->second.arrivals.find(t), theirs = entry->second.arrivals.find(u);
    if (mine == entry->second.arrivals.end() || theirs == entry->second.arrivals.end()) continue;
    if (entry->second.dynamic) dynamic = true;
    const auto reached = static_cast<std::size_t>(
        std::count_if(mine->second.begin(), mine->second.end(), [&](const Arrival& a) { return a.instr < from; }));
    if (reached == mine->second.size()) continue;  // t arrives at every generation before it stops
    for (std::size_t g = reached; g < theirs->second.size(); ++g)
      if (theirs->second[g].waits) {
        if (!first || theirs->second[g].instr < *first) first = theirs->second[g].instr;
        break;
      }
  }
  return first;
}

void BarrierPhases::stuckAfter(int thread, int node) {
  int& c = cutoff_[static_cast<std::size_t>(thread)];
  c = c < 0 ? node : std::min(c, node);
}

void BarrierPhases::analyse(const Key& key, Barrier& b) {
  if (b.dynamic) return;
  const auto& kt = k_.kernel().threads;
  std::size_t most = 0, fewest = SIZE_MAX;
  for (const auto& [t, list] : b.arrivals) {
    most = std::max(most, list.size());
    fewest = std::min(fewest, list.size());
  }
  // One count per generation (PTX: every participant gives the same count).
  std::vector<std::optional<std::int64_t>> counts(most);
  std::vector<bool> seen(most, false);
  for (const auto& [t, list] : b.arrivals)
    for (std::size_t g = 0; g < list.size(); ++g) {
      if (seen[g] && counts[g] != list[g].count) {
        b.dynamic = true;
        dynamic_.push_back("barrier " + std::to_string(key.id) + " at " + lineOf(k_.position(list[g].arriveEvent)) +
                           " is used with different thread counts in one generation (undefined in PTX)");
        return;
      }
      seen[g] = true;
      counts[g] = list[g].count;
    }
  // The threads that should arrive at every generation, and the rule for those that do not.
  std::vector<int> expected;
  if (key.warp) {
    const std::bitset<32> mask(static_cast<unsigned long long>(key.id) & 0xFFFFFFFFull);
    for (std::size_t t = 0; t < kt.size(); ++t)
      if (warpOf(static_cast<int>(t)) == key.domain && mask.test(static_cast<std::size_t>(kt[t].lane))) expected.push_back(static_cast<int>(t));
  } else if (!counts.empty() && !counts[0]) {
    for (std::size_t t = 0; t < kt.size(); ++t)
      if (kt[t].cta == key.domain) expected.push_back(static_cast<int>(t));
  }
  const bool counted = !key.warp && !counts.empty() && counts[0].has_value();
  if (counted) {
    const std::int64_t count = *counts[0];
    const bool sameCount = std::all_of(counts.begin(), counts.end(), [&](const auto& c) { return c == count; });
    const auto participants = static_cast<std::int64_t>(b.arrivals.size());
    if (!sameCount || participants > count || (participants == count && fewest != most)) {
      if (sameCount && participants > count && fewest == most) leftover(key, b, count);
      b.dynamic = true;
      dynamic_.push_back("barrier " + std::to_string(key.id) + " of block " + std::to_string(key.domain) + ": " +
                         std::to_string(participants) + " threads arrive with count " + std::to_string(count) +
                         ", so which arrivals complete a generation depends on their order (not supported yet)");
      return;
    }
    if (participants == count) return;  // exact: generation k is every participant's k-th arrival
    // Fewer participants than the count: no generation ever completes; every thread that waits is stuck there.
    std::map<int, std::vector<int>> waiting;  // instruction position key -> threads
    std::map<int, int> eventOf;
    for (const auto& [t, list] : b.arrivals)
      for (const auto& a : list)
        if (a.waits) {
          const int where = a.arriveEvent;
          const KernelPosition p = k_.position(where);
          waiting[p.ptxLine].push_back(t);
          eventOf.emplace(p.ptxLine, where);
          stuckAfter(t, a.node);
          break;
        }
    for (const auto& [line, threads] : waiting) {
      KernelHang h;
      h.kind = "barrier never completes";
      h.at = k_.position(eventOf[line]);
      h.threads = k_.threadRange(threads) + " wait for barrier " + std::to_string(key.id) + " with count " +
                  std::to_string(count) + ", but only " + std::to_string(participants) + " threads of the block ever arrive";
      hangs_.push_back(std::move(h));
    }
    b.dynamic = true;  // no generation completes: the phases order nothing
    return;
  }
  // No count (all threads of the CTA) or a warp barrier: every expected thread should arrive `most` times.
  std::vector<int> missing;
  std::size_t firstShort = most;
  for (int t : expected) {
    const auto it = b.arrivals.find(t);
    const std::size_t n = it == b.arrivals.end() ? 0 : it->second.size();
    if (n < most) {
      missing.push_back(t);
      firstShort = std::min(firstShort, n);
    }
  }
  if (missing.empty()) return;
  const auto& sample = b.arrivals.begin()->second.at(std::min(firstShort, b.arrivals.begin()->second.size() - 1));
  const frontend::Instruction& in = k_.kernel().program.threads[static_cast<std::size_t>(b.arrivals.begin()->first)]
                                        .code[static_cast<std::size_t>(sample.instr)];
  if (!key.warp && !aligned(in)) return;  // threads that skip it exit and release it (NOTES.md: exit rule)
  // An aligned barrier without a count that not every thread of the CTA executes is undefined behaviour; a warp
  // barrier some lane of its mask never reaches blocks the lanes that do. Either way nothing past that
  // generation is checked in the threads that reach it.
  std::map<int, std::vector<int>> arriving;
  std::map<int, int> eventOf;
  for (const auto& [t, list] : b.arrivals)
    if (list.size() > firstShort) {
      const Arrival& a = list[firstShort];
      const KernelPosition p = k_.position(a.arriveEvent);
      arriving[p.ptxLine].push_back(t);
      eventOf.emplace(p.ptxLine, a.arriveEvent);
      if (a.waits || !key.warp) stuckAfter(t, a.node);
    }
  for (const auto& [line, threads] : arriving) {
    KernelHang h;
    h.at = k_.position(eventOf[line]);
    if (key.warp) {
      h.kind = "warp barrier never completes";
      h.threads = k_.threadRange(missing) + " of its member mask never arrive; " + k_.threadRange(threads) + " wait";
    } else {
      h.kind = "undefined behaviour: aligned barrier not executed by every thread of the block";
      h.threads = k_.threadRange(missing) + " never arrive at this bar.sync (executed by " + k_.threadRange(threads) +
                  "); nothing after it is checked in the threads that reach it";
    }
    hangs_.push_back(std::move(h));
  }
  b.dynamic = true;
}

void BarrierPhases::leftover(const Key& key, const Barrier& b, std::int64_t count) {
  const auto& g = k_.graph();
  const auto participants = static_cast<std::int64_t>(b.arrivals.size());
  const auto each = static_cast<std::int64_t>(b.arrivals.begin()->second.size());
  if ((participants * each) % count == 0) return;
  // Every arrival waits, and nothing before it can keep its thread from making it: no loop, no other wait.
  for (const auto& [t, list] : b.arrivals)
    for (const Arrival& a : list) {
      if (!a.waits || k_.afterLoop(a.arriveEvent)) return;
      const auto& nodes = g.threads[static_cast<std::size_t>(t)].nodes;
      for (int n = 0; n < a.node; ++n)
        for (int e : nodes[static_cast<std::size_t>(n)].events) {
          const model::Event& ev = k_.event(e);
          if (ev.assume) return;
          if (ev.is(Tag::BW) && (keyOf(e) < key || key < keyOf(e))) return;  // another barrier
        }
    }
  // Each generation takes `count` arrivals; the participants' arrivals cannot all be used up, so in every
  // execution some generation never completes and the threads in it, which wait, are stuck. Which threads that is
  // depends on the order of arrival (any warp can be last): the hang is reported at every line of the barrier.
  std::map<int, std::vector<int>> at;  // PTX line -> threads arriving there
  std::map<int, int> eventOf;
  for (const auto& [t, list] : b.arrivals)
    for (const Arrival& a : list) {
      const KernelPosition p = k_.position(a.arriveEvent);
      if (at[p.ptxLine].empty() || at[p.ptxLine].back() != t) at[p.ptxLine].push_back(t);
      eventOf.emplace(p.ptxLine, a.arriveEvent);
    }
  for (const auto& [line, threads] : at) {
    KernelHang h;
    h.kind = "barrier never completes";
    h.at = k_.position(eventOf[line]);
    h.threads = "some of " + k_.threadRange(threads) + " wait for ever: barrier " + std::to_string(key.id) +
                " completes a generation every " + std::to_string(count) + " arrivals, and its " +
                std::to_string(participants) + " threads arrive " + std::to_string(participants * each) +
                " times in all, so the last generation never fills";
    hangs_.push_back(std::move(h));
  }
}

bool BarrierPhases::ordered(int a, int b) const {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (ea.thread == eb.thread || ea.is(Tag::AS)) return false;
  for (const auto* entry : byThread_[static_cast<std::size_t>(ea.thread)]) {
    const auto& arrivals = entry->second.arrivals;
    const auto other = arrivals.find(eb.thread);
    if (other == arrivals.end()) continue;
    const auto& la = arrivals.at(ea.thread);
    const auto& lb = other->second;
    auto before = [](const std::vector<Arrival>& list, int node) {
      return static_cast<std::size_t>(std::count_if(list.begin(), list.end(), [&](const Arrival& x) { return x.node < node; }));
    };
    const std::size_t pa = before(la, ea.node);  // a precedes its thread's arrival at generation pa
    const std::size_t pb = before(lb, eb.node);  // b follows the other thread's arrivals 0..pb-1
    for (std::size_t g = pa; g < pb && g < la.size(); ++g)
      if (lb[g].waits) return true;  // a po arrive(g) syncbar wait(g) po b
  }
  return false;
}

bool BarrierPhases::unreachable(int e) const {
  const model::Event& ev = k_.event(e);
  if (ev.thread < 0) return false;
  const int c = cutoff_[static_cast<std::size_t>(ev.thread)];
  return c >= 0 && ev.node > c;
}

}  // namespace ptxmm::checker::kernel
