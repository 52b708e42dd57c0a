// Values forced by barrier phases and program order (KernelValues.hpp).
#include "checker/kernel/KernelValues.hpp"

#include <algorithm>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// Beyond this many writers of one location the quadratic must-rf test is not worth it: no value is forced.
constexpr std::size_t kMaxWriters = 32;

bool isMemory(const model::Event& e) { return e.is(Tag::R) || e.is(Tag::W); }

}  // namespace

KernelValues::KernelValues(const KernelGraph& kernel, const BarrierPhases& phases) : k_(kernel), phases_(phases) {
  const auto& g = k_.graph();
  writes_.resize(g.initCount());
  mixed_.assign(g.initCount(), false);
  for (std::size_t e = 0; e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    if (ev.is(Tag::W) && ev.paddr >= 0 && (ev.thread < 0 || !phases_.unreachable(static_cast<int>(e))))
      writes_[static_cast<std::size_t>(ev.paddr)].push_back(static_cast<int>(e));
  }
  // Asynchronous events after every earlier event of their thread: issue order (not tcgen05/wgmma operations,
  // which only follow their fences), or aint/adone after such an event of the same instruction (an implicit
  // complete_tx after its store).
  issueOrdered_.assign(g.events.size(), false);
  std::vector<int> issuedAfter(g.events.size(), 0);
  for (const auto& [x, y] : g.iss)
    if (!g.events[static_cast<std::size_t>(x)].is(Tag::AS)) ++issuedAfter[static_cast<std::size_t>(y)];
  std::vector<std::vector<int>> inside(g.events.size());
  for (const auto* list : {&g.aint, &g.adone})
    for (const auto& [x, y] : *list) inside[static_cast<std::size_t>(y)].push_back(x);
  for (std::size_t e = g.initCount(); e < g.events.size(); ++e) {
    const model::Event& ev = g.events[e];
    // Explicit proxy fences of one proxy over all addresses (the ranged tensormap acquire is left out).
    if (ev.thread >= 0 && ev.is(Tag::PF) && !ev.is(Tag::AS) && !ev.is(Tag::ALIAS) && !ev.is(Tag::PFRANGE))
      proxyFences_.push_back(static_cast<int>(e));
    if (!ev.is(Tag::AS) || ev.thread < 0) continue;
    int earlier = 0;
    const auto& nodes = g.threads[static_cast<std::size_t>(ev.thread)].nodes;
    for (int n = 0; n < ev.node; ++n)
      for (int x : nodes[static_cast<std::size_t>(n)].events) earlier += !g.events[static_cast<std::size_t>(x)].is(Tag::AS);
    issueOrdered_[e] = issuedAfter[e] == earlier || std::any_of(inside[e].begin(), inside[e].end(), [&](int x) {
                         return static_cast<std::size_t>(x) < e && g.events[static_cast<std::size_t>(x)].node == ev.node &&
                                issueOrdered_[static_cast<std::size_t>(x)];
                       });
  }
  // Completion (adone, A10): an asynchronous access precedes the waits that retire it (cp.async.wait_group /
  // wait_all in its thread), and through aint so does the operation's read before its write. Only a wait on every
  // path of its thread and outside loops counts: then it happens whenever the access's thread gets past it.
  retiredBy_.resize(g.events.size());
  for (const auto& [x, y] : g.adone) {
    const model::Event& w = g.events[static_cast<std::size_t>(y)];
    if (!w.is(Tag::AS) && w.thread >= 0 && w.thread == g.events[static_cast<std::size_t>(x)].thread &&
        k_.unconditional(y) && !k_.inLoop(y))
      retiredBy_[static_cast<std::size_t>(x)].push_back(y);
  }
  for (const auto& [x, y] : g.aint)
    for (int w : retiredBy_[static_cast<std::size_t>(y)]) retiredBy_[static_cast<std::size_t>(x)].push_back(w);
  // Mixed sizes: an accessed byte range that overlaps another location's bytes without being the same location.
  std::map<int, std::vector<const KernelAccess*>> byBuffer;
  for (const auto& a : k_.accesses()) {
    byBuffer[a.buffer].push_back(&a);
    if (a.write && !phases_.unreachable(a.event)) writeAccesses_[a.buffer].push_back(&a);
  }
  for (auto& [buffer, list] : byBuffer) {
    std::sort(list.begin(), list.end(), [](const auto* x, const auto* y) { return x->lo < y->lo; });
    const KernelAccess* reach = nullptr;  // the access reaching furthest so far
    for (const KernelAccess* a : list) {
      if (reach && a->lo < reach->hi && a->location != reach->location) {
        mixed_[static_cast<std::size_t>(k_.event(a->event).paddr)] = true;
        mixed_[static_cast<std::size_t>(k_.event(reach->event).paddr)] = true;
      }
      if (!reach || a->hi > reach->hi) reach = a;
    }
  }
}

bool KernelValues::before(int a, int b) const {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (ea.is(Tag::I)) return true;  // initial writes precede everything (spec §1.2)
  if (eb.is(Tag::I)) return false;
  if (!isMemory(ea) || !isMemory(eb) || !eb.is(Tag::AS) || eb.is(Tag::GEN)) return ordered(a, b);
  // b accesses memory through another proxy (the async proxy of a bulk copy): a generic access reaches it in
  // causality order only through a proxy fence of b's proxy in b's CTA that follows a and precedes b in base
  // causality (ppbc C4, ptx-core.cat from-pf / pfo).
  if (!ea.is(Tag::GEN) || ea.is(Tag::AS)) return false;
  const auto& threads = k_.kernel().threads;
  for (int f : proxyFences_) {
    const model::Event& ef = k_.event(f);
    const bool proxy = (ef.is(Tag::ASYNC) && eb.is(Tag::ASYNC)) || (ef.is(Tag::TMAP) && eb.is(Tag::TMAP));
    const bool space = !(ef.is(Tag::GLOBAL) && !eb.is(Tag::GLOBAL)) && !(ef.is(Tag::SHARED) && !eb.is(Tag::SHARED));
    if (proxy && space && threads[static_cast<std::size_t>(ef.thread)].cta == threads[static_cast<std::size_t>(eb.thread)].cta &&
        ordered(a, f) && ordered(f, b))
      return true;
  }
  return false;
}

bool KernelValues::ordered(int a, int b) const {
  const model::Event& ea = k_.event(a);
  const model::Event& eb = k_.event(b);
  if (eb.is(Tag::AS)) {
    // Issue order (iss, spec §2.2, A10): an asynchronous access follows what its thread did before issuing it, so
    // whatever precedes one of those.
    if (ea.is(Tag::AS) || !issueOrdered_[static_cast<std::size_t>(b)]) return false;
    if (ea.thread == eb.thread) return ea.node < eb.node;
  } else if (ea.is(Tag::AS)) {
    // An asynchronous access is not in po: it precedes what a wait retiring it precedes (bc0 ⊇ adone ; po ; sw).
    const auto& waits = retiredBy_[static_cast<std::size_t>(a)];
    if (std::any_of(waits.begin(), waits.end(), [&](int w) { return ordered(w, b); })) return true;
  } else if (ea.thread == eb.thread) {
    return a < b;
  }
  return phases_.ordered(a, b) || std::any_of(extra_.begin(), extra_.end(), [&](const auto& o) { return o(a, b); });
}

int KernelValues::mustReadFrom(int read) {
  if (const auto it = mustRf_.find(read); it != mustRf_.end()) return it->second;
  int found = -1;
  const model::Event& r = k_.event(read);
  const auto& writes = writes_[static_cast<std::size_t>(r.paddr)];
  if (!mixed_[static_cast<std::size_t>(r.paddr)] && writes.size() <= kMaxWriters) {
    for (int w : writes) {
      if (w == read || !before(w, read)) continue;
      if (k_.event(w).thread >= 0 && (!k_.unconditional(w) || k_.inLoop(w) || k_.event(w).existsIf)) continue;
      const bool forced = std::all_of(writes.begin(), writes.end(), [&](int o) {
        return o == w || before(o, w) || before(read, o);
      });
      if (forced) {
        found = w;
        break;
      }
    }
  }
  mustRf_[read] = found;
  return found;
}

std::optional<std::int64_t> KernelValues::readValue(int read) {
  if (mixed_[static_cast<std::size_t>(k_.event(read).paddr)]) return bytewiseReadValue(read);
  const int w = mustReadFrom(read);
  if (w < 0) return std::nullopt;
  return writeValue(w);
}

std::optional<std::int64_t> KernelValues::bytewiseReadValue(int read) {
  const KernelAccess* r = k_.access(read);
  if (!r) return std::nullopt;
  const auto it = writeAccesses_.find(r->buffer);
  if (it == writeAccesses_.end()) return std::nullopt;
  std::uint64_t bits = 0;
  for (std::int64_t byte = r->lo; byte < r->hi; ++byte) {
    std::vector<const KernelAccess*> cover;  // the writes of this byte
    for (const KernelAccess* a : it->second)
      if (a->lo <= byte && byte < a->hi && a->event != read) cover.push_back(a);
    const auto forced = std::find_if(cover.begin(), cover.end(), [&](const KernelAccess* w) {
      const int e = w->event;
      if (!before(e, read) || !k_.unconditional(e) || k_.inLoop(e) || k_.event(e).existsIf) return false;
      return std::all_of(cover.begin(), cover.end(), [&](const KernelAccess* o) {
        return o == w || before(o->event, e) || before(read, o->event);
      });
    });
    if (forced == cover.end()) return std::nullopt;
    const auto v = writeValue((*forced)->event);
    if (!v) return std::nullopt;
    const std::uint64_t value = (static_cast<std::uint64_t>(*v) >> (8 * (byte - (*forced)->lo))) & 0xff;
    bits |= value << (8 * (byte - r->lo));
  }
  // Canonical at the read's width, as every value of an access is: its low bits, sign-extended.
  const int shift = 64 - 8 * static_cast<int>(r->hi - r->lo);
  return shift <= 0 ? static_cast<std::int64_t>(bits) : static_cast<std::int64_t>(bits << shift) >> shift;
}

std::optional<std::int64_t> KernelValues::writeValue(int write) {
  if (const auto it = writeValues_.find(write); it != writeValues_.end()) return it->second;
  const model::Event& w = k_.event(write);
  if (w.is(Tag::I)) return k_.graph().initValues[static_cast<std::size_t>(w.paddr)];
  // A compare-and-swap's write half happens only when the compare succeeds: its value is not forced (FinalValues
  // decides from its thread's paths whether it happens).
  if (w.existsIf || std::find(inProgress_.begin(), inProgress_.end(), write) != inProgress_.end()) return std::nullopt;
  inProgress_.push_back(write);
  std::optional<std::int64_t> v;
  if (const model::ValuePtr term = k_.writeTerm(write); term && !model::value::containsOpaque(term))
    v = model::value::evaluate(term, [&](int r) { return readValue(r); });
  inProgress_.pop_back();
  writeValues_[write] = v;
  return v;
}

}  // namespace ptxmm::checker::kernel
