// Generations of barrier.cluster and the order they give (ClusterPhases.hpp).
#include "checker/kernel/ClusterPhases.hpp"

#include <algorithm>
#include <set>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

}  // namespace

ClusterPhases::ClusterPhases(const KernelGraph& kernel, std::function<bool(int, int)> morallyStrong)
    : k_(kernel), morallyStrong_(std::move(morallyStrong)) {
  const auto& g = k_.graph();
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    if (ev.thread < 0 || !ev.is(Tag::CB)) continue;
    const bool wait = ev.assume != nullptr;
    if (!wait && !ev.is(Tag::W)) continue;  // an arrival's read half
    Cluster& c = clusters_[g.threads[static_cast<std::size_t>(ev.thread)].cluster];
    Sequence& s = c.threads[ev.thread];
    const int ei = static_cast<int>(e);
    // arrive, wait, arrive, wait, ...: each arrival followed by its own wait before the next one.
    if (!k_.unconditional(ei) || k_.inLoop(ei) || (wait ? s.waits.size() + 1 != s.arrives.size() : s.waits.size() != s.arrives.size()))
      c.isStatic = false;
    (wait ? s.waits : s.arrives).push_back(ei);
  }
  // The participants are the threads whose code arrives at all (as the unroller counts them for the waits).
  std::map<int, std::size_t> arriving;
  for (std::size_t t = 0; t < g.threads.size(); ++t) {
    const auto& code = k_.kernel().program.threads[t].code;
    if (std::any_of(code.begin(), code.end(), [](const frontend::Instruction& in) { return in.op == frontend::Opcode::ClusterArrive; }))
      ++arriving[g.threads[t].cluster];
  }
  for (auto& [id, c] : clusters_) {
    if (!c.isStatic || c.threads.size() != arriving[id]) {
      c.isStatic = false;
      continue;
    }
    const std::size_t n = c.threads.begin()->second.arrives.size();
    for (const auto& [t, s] : c.threads)
      if (s.arrives.size() != n || s.waits.size() != n) c.isStatic = false;
    // One morally strong pair per kind of arrival stands for all (ms depends on tags and placement only).
    for (auto a = c.threads.begin(); c.isStatic && a != c.threads.end(); ++a)
      for (auto b = c.threads.begin(); c.isStatic && b != c.threads.end(); ++b)
        if (a != b && !morallyStrong_(a->second.arrives.front(), b->second.waits.front())) c.isStatic = false;
  }
}

std::vector<std::string> ClusterPhases::exitGaps() const {
  const auto& g = k_.graph();
  std::map<int, std::set<int>> waiters;  // cluster -> threads with a wait
  std::set<int> arriving, mayBlock;      // threads with an arrival; threads with a wait of any kind
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    if (ev.thread < 0) continue;
    if (ev.is(Tag::CB) && ev.is(Tag::W)) arriving.insert(ev.thread);
    if (ev.is(Tag::CB) && ev.assume) waiters[g.threads[static_cast<std::size_t>(ev.thread)].cluster].insert(ev.thread);
    if (ev.assume || ev.is(Tag::BW)) mayBlock.insert(ev.thread);
  }
  std::vector<std::string> out;
  for (const auto& [cluster, waiting] : waiters) {
    std::vector<int> silent;  // threads that never arrive and may not exit
    for (std::size_t t = 0; t < g.threads.size(); ++t) {
      const int ti = static_cast<int>(t);
      if (g.threads[t].cluster == cluster && !arriving.count(ti) && (mayBlock.count(ti) || !g.threads[t].loops.empty()))
        silent.push_back(ti);
    }
    if (silent.empty()) continue;
    out.push_back(k_.threadRange(silent) + " never arrive at the barrier.cluster that " +
                  k_.threadRange({waiting.begin(), waiting.end()}) +
                  " wait on, and may never exit (a loop or a wait): PTX releases that barrier only once they exit, "
                  "which ptxmm does not model, so whether the cluster's waits end is not decided");
  }
  return out;
}

bool ClusterPhases::isStatic(int thread) const {
  const auto it = clusters_.find(k_.graph().threads[static_cast<std::size_t>(thread)].cluster);
  return it != clusters_.end() && it->second.isStatic;
}

std::vector<int> ClusterPhases::arrivals(int thread, int generation) const {
  std::vector<int> out;
  const auto it = clusters_.find(k_.graph().threads[static_cast<std::size_t>(thread)].cluster);
  if (it == clusters_.end() || !it->second.isStatic) return out;
  for (const auto& [t, s] : it->second.threads) out.push_back(s.arrives.at(static_cast<std::size_t>(generation)));
  return out;
}

int ClusterPhases::waitGeneration(int e) const {
  const model::Event& ev = k_.event(e);
  if (ev.thread < 0 || !ev.is(Tag::CB) || !ev.assume || !isStatic(ev.thread)) return -1;
  const auto& s = clusters_.at(k_.graph().threads[static_cast<std::size_t>(ev.thread)].cluster).threads.at(ev.thread);
  return static_cast<int>(std::find(s.waits.begin(), s.waits.end(), e) - s.waits.begin());
}

std::optional<int> ClusterPhases::blockedBy(int t, int from, int u, bool& dynamic) const {
  const auto& g = k_.graph();
  const int cluster = g.threads[static_cast<std::size_t>(t)].cluster;
  const auto it = clusters_.find(cluster);
  if (it == clusters_.end() || cluster != g.threads[static_cast<std::size_t>(u)].cluster) return std::nullopt;
  const auto mine = it->second.threads.find(t), theirs = it->second.threads.find(u);
  if (mine == it->second.threads.end() || theirs == it->second.threads.end()) return std::nullopt;
  if (!it->second.isStatic) {
    dynamic = true;
    return std::nullopt;
  }
  const auto& arrives = mine->second.arrives;
  const auto reached = static_cast<std::size_t>(
      std::count_if(arrives.begin(), arrives.end(), [&](int e) { return k_.instructionIndex(e) < from; }));
  if (reached >= theirs->second.waits.size()) return std::nullopt;
  return k_.instructionIndex(theirs->second.waits[reached]);
}

std::pair<const ClusterPhases::Sequence*, const ClusterPhases::Sequence*> ClusterPhases::sequences(int a, int b) const {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (ea.thread < 0 || eb.thread < 0 || ea.thread == eb.thread || ea.is(Tag::AS)) return {};
  const auto& g = k_.graph();
  const int cluster = g.threads[static_cast<std::size_t>(ea.thread)].cluster;
  if (cluster != g.threads[static_cast<std::size_t>(eb.thread)].cluster) return {};
  const auto it = clusters_.find(cluster);
  if (it == clusters_.end() || !it->second.isStatic) return {};
  const auto sa = it->second.threads.find(ea.thread), sb = it->second.threads.find(eb.thread);
  if (sa == it->second.threads.end() || sb == it->second.threads.end()) return {};
  return {&sa->second, &sb->second};
}

bool ClusterPhases::releasedBefore(const Sequence& sa, int a, std::size_t generations, int wait) const {
  for (std::size_t k = 0; k < std::min(generations, sa.arrives.size()); ++k)
    if (sa.arrives[k] > a && released(a, sa.arrives[k], wait)) return true;
  return false;
}

bool ClusterPhases::ordered(int a, int b) const {
  const auto [sa, sb] = sequences(a, b);
  if (!sa) return false;
  // The waits before b, and the first arrival after a that ends a release pattern covering a (a generation
  // before the last of those waits).
  const auto& waits = sb->waits;
  const std::size_t passed = static_cast<std::size_t>(std::count_if(waits.begin(), waits.end(), [&](int w) { return w < b; }));
  if (passed == 0) return false;
  return releasedBefore(*sa, a, passed, waits[passed - 1]);
}

bool ClusterPhases::beforeWait(int a, int wait) const {
  const auto [sa, sb] = sequences(a, wait);
  if (!sa) return false;
  const auto at = std::find(sb->waits.begin(), sb->waits.end(), wait);
  if (at == sb->waits.end()) return false;
  return releasedBefore(*sa, a, static_cast<std::size_t>(at - sb->waits.begin()) + 1, wait);
}

bool ClusterPhases::covers(int f, int a) const {
  const model::Event& ef = k_.event(f);
  const model::Event& ea = k_.event(a);
  if (!ef.is(Tag::F) || !(ef.is(Tag::REL) || ef.is(Tag::ACQ_REL) || ef.is(Tag::SC))) return false;
  if (!ef.is(Tag::RSTR)) return true;
  return (ef.is(Tag::RMBINIT) && ea.is(Tag::MBINIT)) ||
         (ef.is(Tag::RSHCTA) && ea.is(Tag::SHCTA) && (ea.is(Tag::R) || ea.is(Tag::W)));
}

bool ClusterPhases::released(int a, int arrive, int wait) const {
  if (k_.event(arrive).is(Tag::REL) || k_.event(arrive).is(Tag::ACQ_REL)) return morallyStrong_(arrive, wait);
  const auto key = std::tuple{a, arrive, wait};
  if (const auto it = released_.find(key); it != released_.end()) return it->second;
  // On every path through a, a fence covering a between a and the arrival's read half (arrive - 1), morally
  // strong with the wait.
  bool all = true, some = false;
  for (const ThreadPath& p : k_.paths(k_.event(a).thread)) {
    const auto from = std::find(p.events.begin(), p.events.end(), a);
    if (from == p.events.end()) continue;
    const auto to = std::find(from, p.events.end(), arrive - 1);
    some = true;
    all = to != p.events.end() &&
          std::any_of(from + 1, to, [&](int f) { return covers(f, a) && morallyStrong_(f, wait); });
    if (!all) break;
  }
  return released_[key] = all && some;
}

}  // namespace ptxmm::checker::kernel
