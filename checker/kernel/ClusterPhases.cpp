// Generations of barrier.cluster and the order they give (ClusterPhases.hpp).
#include "checker/kernel/ClusterPhases.hpp"

#include <algorithm>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

}  // namespace

ClusterPhases::ClusterPhases(const KernelGraph& kernel, std::function<bool(int, int)> morallyStrong) : k_(kernel) {
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
        if (a != b && !morallyStrong(a->second.arrives.front(), b->second.waits.front())) c.isStatic = false;
  }
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

bool ClusterPhases::ordered(int a, int b) const {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (ea.thread < 0 || eb.thread < 0 || ea.thread == eb.thread || ea.is(Tag::AS) || eb.is(Tag::AS)) return false;
  const auto& g = k_.graph();
  const int cluster = g.threads[static_cast<std::size_t>(ea.thread)].cluster;
  if (cluster != g.threads[static_cast<std::size_t>(eb.thread)].cluster) return false;
  const auto it = clusters_.find(cluster);
  if (it == clusters_.end() || !it->second.isStatic) return false;
  const auto sa = it->second.threads.find(ea.thread), sb = it->second.threads.find(eb.thread);
  if (sa == it->second.threads.end() || sb == it->second.threads.end()) return false;
  // The first release arrival after a, and the waits before b.
  std::size_t k = 0;
  while (k < sa->second.arrives.size() && (sa->second.arrives[k] < a || !k_.event(sa->second.arrives[k]).is(Tag::REL))) ++k;
  if (k == sa->second.arrives.size()) return false;
  const auto& waits = sb->second.waits;
  const std::size_t passed = static_cast<std::size_t>(std::count_if(waits.begin(), waits.end(), [&](int w) { return w < b; }));
  return passed > k;
}

}  // namespace ptxmm::checker::kernel
