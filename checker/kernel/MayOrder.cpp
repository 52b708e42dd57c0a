// The may-order graph and its searches (MayOrder.hpp).
#include "checker/kernel/MayOrder.hpp"

#include <algorithm>
#include <climits>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

constexpr std::size_t kCachedSearches = 64;

bool isMemory(const model::Event& e) { return e.is(Tag::R) || e.is(Tag::W); }
bool strong(const model::Event& e) { return isMemory(e) && !e.is(Tag::WEAK); }
bool acquireFence(const model::Event& e) { return e.is(Tag::F) && (e.is(Tag::ACQ) || e.is(Tag::ACQ_REL) || e.is(Tag::SC)); }
// The first event of a release pattern (rp1-rp3, and the restricted rel-restr): a release write, or a release,
// acq_rel or sc fence.
bool releaseHead(const model::Event& e) {
  return (e.is(Tag::F) && (e.is(Tag::REL) || e.is(Tag::ACQ_REL) || e.is(Tag::SC))) ||
         (e.is(Tag::W) && (e.is(Tag::REL) || e.is(Tag::ACQ_REL)));
}

}  // namespace

bool MayOrder::inPo(int e) const {
  const model::Event& ev = k_.event(e);
  return ev.thread >= 0 && !ev.is(Tag::AS);
}

// Events that can start or end a causality edge across threads: everything but weak memory accesses.
bool MayOrder::synchronising(int e) const {
  const model::Event& ev = k_.event(e);
  return !(isMemory(ev) && ev.is(Tag::WEAK));
}

bool MayOrder::passive(int v, std::int64_t active) const {
  if (!passive_.count(v)) return false;
  const int e = nodeEvent_[static_cast<std::size_t>(v)];
  return active < 0 || !(k_.event(e).is(Tag::R) && k_.event(e).paddr == active);
}

int MayOrder::headBefore(int t, int e) const {
  const auto& heads = heads_[static_cast<std::size_t>(t)];
  const auto it = std::upper_bound(heads.begin(), heads.end(), e);
  return it == heads.begin() ? -1 : *std::prev(it);
}

// obs ; ppbc (spec §2.11): obs starts at a strong write and ends at a read of its location (msrf needs the same
// virtual address, so the same physical one); ppbc then needs loc between that read and b, so b overlaps a.
std::int64_t MayOrder::observedLocation(int a, int b) const {
  const model::Event& ea = k_.event(a);
  if (!ea.is(Tag::W) || !strong(ea) || ea.paddr < 0 || ea.is(Tag::CB)) return -1;
  const KernelAccess* x = k_.access(a);
  const KernelAccess* y = k_.access(b);
  const bool overlap = !x || !y || (x->buffer == y->buffer && x->lo < y->hi && y->lo < x->hi);
  return overlap ? ea.paddr : -1;
}

int MayOrder::hub(std::map<std::int64_t, int>& hubs, std::int64_t key) {
  auto [it, inserted] = hubs.emplace(key, static_cast<int>(nodes_.size()));
  if (inserted) {
    nodes_.emplace_back();
    nodeEvent_.push_back(-1);
  }
  return it->second;
}

// Which generation of its barrier each barrier event belongs to: the number of arrivals at the same barrier
// before it in its thread (a wait belongs to its own arrival's). A barrier some thread reaches under a condition,
// in a loop or with a computed id, or one BarrierPhases does not find static (more arriving threads than its
// count: which arrivals complete a generation depends on their order), has no static generations: its events
// get generation -1 (one hub for all).
MayOrder::Generations MayOrder::barrierGenerations(const BarrierPhases* phases) const {
  const model::EventGraph& g = k_.graph();
  Generations out;
  std::set<std::string> dynamic;
  std::map<std::pair<int, std::string>, int> arrivals;  // (thread, barrier) -> arrivals so far
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    if (ev.thread < 0 || !(ev.is(Tag::BA) || ev.is(Tag::BW) || ev.is(Tag::CB))) continue;
    const bool constantId = ev.is(Tag::CB) || (ev.barrier && ev.barrier->id->op == model::ValueOp::Const);
    const std::string barrier = ev.is(Tag::CB) ? "cluster " + std::to_string(g.threads[static_cast<std::size_t>(ev.thread)].cluster)
                                               : "domain " + std::to_string(g.barrierDomain(ev)) + " id " +
                                                     (constantId ? std::to_string(ev.barrier->id->constant) : "?");
    const bool phased = ev.is(Tag::CB) || !phases || phases->isStatic(static_cast<int>(e));
    if (!constantId || !phased || !k_.unconditional(static_cast<int>(e)) || k_.inLoop(static_cast<int>(e)))
      dynamic.insert(ev.is(Tag::CB) ? barrier : "domain " + std::to_string(g.barrierDomain(ev)));
    const bool arrive = ev.is(Tag::BA) || (ev.is(Tag::CB) && ev.is(Tag::W));
    int& n = arrivals[{ev.thread, barrier}];
    if (arrive) ++n;
    out[static_cast<int>(e)] = {barrier, n - 1};
  }
  for (auto& [e, key] : out) {
    const model::Event& ev = g.events[static_cast<std::size_t>(e)];
    const std::string domain = "domain " + std::to_string(g.barrierDomain(ev));
    if (dynamic.count(key.first) || (!ev.is(Tag::CB) && dynamic.count(domain))) key = {ev.is(Tag::CB) ? key.first : domain, -1};
  }
  return out;
}

int MayOrder::barrierHub(int e, const Generations& generations) {
  const auto& [barrier, generation] = generations.at(e);
  auto [it, inserted] = barrierHubs_.emplace(barrier + " generation " + std::to_string(generation), static_cast<int>(nodes_.size()));
  if (inserted) {
    nodes_.emplace_back();
    nodeEvent_.push_back(-1);
  }
  return it->second;
}

void MayOrder::edge(int from, int to) {
  nodes_[static_cast<std::size_t>(from)].out.push_back(to);
  nodes_[static_cast<std::size_t>(to)].in.push_back(from);
}

MayOrder::MayOrder(const KernelGraph& kernel, const BarrierPhases* phases) : k_(kernel) {
  const model::EventGraph& g = k_.graph();
  const std::size_t n = g.events.size();
  chain_.resize(g.threads.size());
  issued_.resize(g.threads.size());
  heads_.resize(g.threads.size());
  nodeOfEvent_.assign(n, -1);
  auto nodeFor = [&](int e) {
    int& id = nodeOfEvent_[static_cast<std::size_t>(e)];
    if (id < 0) {
      id = static_cast<int>(nodes_.size());
      nodes_.emplace_back();
      nodeEvent_.push_back(e);
    }
    return id;
  };
  const Generations generations = barrierGenerations(phases);
  // Per thread, the last acquire-capable fence: a strong read before it ends an acquire pattern (ap3).
  std::vector<int> lastAcquireFence(g.threads.size(), -1);
  for (std::size_t e = g.initCount(); e < n; ++e)
    if (g.events[e].thread >= 0 && acquireFence(g.events[e]))
      lastAcquireFence[static_cast<std::size_t>(g.events[e].thread)] = static_cast<int>(e);
  for (std::size_t e = g.initCount(); e < n; ++e) {
    const model::Event& ev = g.events[e];
    const int ei = static_cast<int>(e);
    if (ev.thread < 0) continue;
    if (inPo(ei) && synchronising(ei)) chain_[static_cast<std::size_t>(ev.thread)].push_back(ei);
    if (inPo(ei) && releaseHead(ev)) heads_[static_cast<std::size_t>(ev.thread)].push_back(ei);
    if (!inPo(ei)) nodeFor(ei);
    if (strong(ev) && ev.paddr >= 0 && !ev.is(Tag::CB)) {
      const int h = hub(locationHubs_, ev.paddr);
      if (ev.is(Tag::W)) edge(nodeFor(ei), h);
      if (ev.is(Tag::W) && inPo(ei)) gated_.insert(nodeFor(ei));
      if (ev.is(Tag::R)) edge(h, nodeFor(ei));
      // Reads-from orders what follows a read only through an acquire pattern (ap1-ap4); otherwise it can only
      // continue an observation chain through the read's own atomic write half (rmw).
      const bool acquires = ev.is(Tag::R) && !ev.is(Tag::RED) &&
                            (ev.is(Tag::ACQ) || ev.is(Tag::ACQ_REL) || lastAcquireFence[static_cast<std::size_t>(ev.thread)] > ei);
      if (!acquires) passive_.insert(nodeFor(ei));
      if (ev.is(Tag::W) && e > 0 && g.events[e - 1].is(Tag::R) && g.events[e - 1].node == ev.node &&
          g.events[e - 1].thread == ev.thread && g.events[e - 1].paddr == ev.paddr) {
        edge(nodeFor(ei - 1), nodeFor(ei));
        passive_.insert(nodeFor(ei));
        if (inPo(ei - 1)) gated_.insert(nodeFor(ei - 1));
      }
    }
    if (ev.is(Tag::BA) || ev.is(Tag::BW) || ev.is(Tag::CB)) {
      // Barriers: arrive -> hub -> wait, one hub per generation when the barrier's generations are static.
      const int h = barrierHub(ei, generations);
      if (ev.is(Tag::BA) || (ev.is(Tag::CB) && ev.is(Tag::W))) edge(nodeFor(ei), h);
      if (ev.is(Tag::BW) || (ev.is(Tag::CB) && ev.is(Tag::R) && ev.is(Tag::ACQ))) edge(h, nodeFor(ei));
    }
    if (ev.is(Tag::F) && ev.is(Tag::SC)) {
      const int h = hub(fenceHub_, 0);
      edge(nodeFor(ei), h);
      edge(h, nodeFor(ei));
    }
  }
  // A cluster barrier is one RMW chain on its location (spec §4.3): an arrival of generation k is read, through
  // the arrivals after it, by the waits of every later generation, so each generation's hub leads to the next.
  for (const auto& [key, h] : barrierHubs_) {
    const std::size_t cut = key.rfind(" generation ");
    const int generation = std::stoi(key.substr(cut + 12));
    if (key.rfind("cluster ", 0) != 0 || generation < 0) continue;
    const auto next = barrierHubs_.find(key.substr(0, cut) + " generation " + std::to_string(generation + 1));
    if (next != barrierHubs_.end()) edge(h, next->second);
  }
  threshold_.assign(nodes_.size(), -1);
  for (const auto& [x, a] : g.iss) {
    const int na = nodeOfEvent_[static_cast<std::size_t>(a)];
    if (na >= 0 && g.events[static_cast<std::size_t>(x)].thread == g.events[static_cast<std::size_t>(a)].thread)
      threshold_[static_cast<std::size_t>(na)] = std::max(threshold_[static_cast<std::size_t>(na)], x);
  }
  for (const auto* list : {&g.aint, &g.adone})
    for (const auto& [x, y] : *list) edge(nodeFor(x), nodeFor(y));
  threshold_.resize(nodes_.size(), -1);
  for (std::size_t v = 0; v < nodes_.size(); ++v) {
    const int e = nodeEvent_[v];
    if (e >= 0 && !inPo(e) && threshold_[v] >= 0)
      issued_[static_cast<std::size_t>(k_.event(e).thread)].emplace_back(threshold_[v], static_cast<int>(v));
  }
  for (auto& list : issued_) std::sort(list.begin(), list.end());
}

// A graph search. Forward: pos[t] is the smallest event id reached in thread t (every po event at or after it is
// reached); backward: the largest (every po event at or before it reaches the target).
void MayOrder::search(Reach& r, bool forwardDirection, std::int64_t active, std::vector<int> threads, std::vector<int> work) {
  // Per thread: the position whose po events were already expanded (none yet); forward, the first release head
  // from which gated nodes were expanded.
  std::vector<int> done(r.pos.size(), forwardDirection ? INT_MAX : INT_MIN);
  std::vector<int> released(r.pos.size(), INT_MAX);
  for (;;) {
    if (!threads.empty()) {
      const int t = threads.back();
      threads.pop_back();
      const auto& chain = chain_[static_cast<std::size_t>(t)];
      const int now = r.pos[static_cast<std::size_t>(t)], was = done[static_cast<std::size_t>(t)];
      if (now == was) continue;
      done[static_cast<std::size_t>(t)] = now;
      // The po events newly covered: ids in [now, was) forward, (was, now] backward.
      auto lo = forwardDirection ? std::lower_bound(chain.begin(), chain.end(), now)
                                 : std::upper_bound(chain.begin(), chain.end(), was);
      auto hi = forwardDirection ? std::lower_bound(chain.begin(), chain.end(), was)
                                 : std::upper_bound(chain.begin(), chain.end(), now);
      // Forward, every node of a covered po event is reached; backward, a covered event reaches the target only
      // through po, which an event entered by reads-from alone (passive) cannot continue.
      for (auto it = lo; it < hi; ++it)
        if (const int v = nodeOf(*it); v >= 0 && (forwardDirection ? !gated(v) : !passive(v, active))) work.push_back(v);
      if (forwardDirection) {
        for (const auto& [threshold, v] : issued_[static_cast<std::size_t>(t)])
          if (threshold >= now && threshold < was) work.push_back(v);
        // Gated nodes from the first release head reached on (those after an earlier head are already in).
        const auto& heads = heads_[static_cast<std::size_t>(t)];
        const auto head = std::lower_bound(heads.begin(), heads.end(), now);
        int& from = released[static_cast<std::size_t>(t)];
        if (head != heads.end() && *head < from) {
          for (auto it = std::lower_bound(chain.begin(), chain.end(), *head); it != chain.end() && *it < from; ++it)
            if (const int v = nodeOf(*it); v >= 0 && gated(v)) work.push_back(v);
          from = *head;
        }
      }
      continue;
    }
    if (work.empty()) break;
    const int v = work.back();
    work.pop_back();
    if (r.visited[static_cast<std::size_t>(v)]) continue;
    r.visited[static_cast<std::size_t>(v)] = true;
    const int e = nodeEvent_[static_cast<std::size_t>(v)];
    if (e >= 0) {
      const int t = k_.event(e).thread;
      int& pos = r.pos[static_cast<std::size_t>(t)];
      // Backward, a gated write reached through reads-from orders its thread only up to its release head (the
      // write a of an observed search's location itself, through obs), and an RMW read half nothing of its own.
      const bool observedWrite = active >= 0 && k_.event(e).is(Tag::W) && k_.event(e).paddr == active;
      const int target = !inPo(e) ? (forwardDirection ? -1 : threshold_[static_cast<std::size_t>(v)])
                         : forwardDirection ? (passive(v, active) ? -1 : e)
                         : !gated(v) || observedWrite ? e
                         : k_.event(e).is(Tag::W) ? headBefore(t, e) : -1;
      if (target >= 0 && (forwardDirection ? target < pos : target > pos)) {
        pos = target;
        threads.push_back(t);
      }
    }
    for (int w : forwardDirection ? nodes_[static_cast<std::size_t>(v)].out : nodes_[static_cast<std::size_t>(v)].in)
      if (!r.visited[static_cast<std::size_t>(w)]) work.push_back(w);
  }
}

const MayOrder::Reach& MayOrder::forward(int a, std::int64_t active) {
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->first == std::pair{a, active}) {
      cache_.splice(cache_.begin(), cache_, it);
      return cache_.front().second;
    }
  Reach r{std::vector<int>(chain_.size(), INT_MAX), std::vector<bool>(nodes_.size(), false)};
  const model::Event& ev = k_.event(a);
  if (inPo(a)) {
    r.pos[static_cast<std::size_t>(ev.thread)] = a;  // a itself and everything after it in po
    // obs ; ppbc starts at a's own reads-from, with no release head.
    std::vector<int> own;
    if (active >= 0 && nodeOf(a) >= 0) own.push_back(nodeOf(a));
    search(r, true, active, {ev.thread}, own);
  } else {
    search(r, true, active, {}, {nodeOf(a)});
  }
  cache_.emplace_front(std::pair{a, active}, std::move(r));
  if (cache_.size() > kCachedSearches) cache_.pop_back();
  return cache_.front().second;
}

MayOrder::Reach MayOrder::backward(int b, std::int64_t active) {
  Reach r{std::vector<int>(chain_.size(), INT_MIN), std::vector<bool>(nodes_.size(), false)};
  const model::Event& ev = k_.event(b);
  if (inPo(b)) {
    r.pos[static_cast<std::size_t>(ev.thread)] = b;
    search(r, false, active, {ev.thread}, {});
  } else {
    search(r, false, active, {}, {nodeOf(b)});
  }
  return r;
}

bool MayOrder::reaches(int a, int b) {
  const Reach& r = forward(a, observedLocation(a, b));
  const model::Event& eb = k_.event(b);
  if (!inPo(b)) return r.visited[static_cast<std::size_t>(nodeOf(b))];
  const int v = nodeOf(b);
  return r.pos[static_cast<std::size_t>(eb.thread)] < b || (v >= 0 && r.visited[static_cast<std::size_t>(v)]);
}

std::vector<int> MayOrder::between(int a, int b) {
  std::vector<int> out;
  if (!reaches(a, b)) return out;
  const std::int64_t active = observedLocation(a, b);
  const Reach f = forward(a, active);
  const Reach back = backward(b, active);
  for (std::size_t t = 0; t < chain_.size(); ++t) {
    if (f.pos[t] == INT_MAX || back.pos[t] == INT_MIN) continue;
    for (int e : chain_[t])
      if (e >= f.pos[t] && e <= back.pos[t]) out.push_back(e);
  }
  // Asynchronous events, and atomics a chain passes through without entering their thread's po.
  for (std::size_t v = 0; v < nodes_.size(); ++v)
    if (f.visited[v] && back.visited[v] && nodeEvent_[v] >= 0) out.push_back(nodeEvent_[v]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace ptxmm::checker::kernel
