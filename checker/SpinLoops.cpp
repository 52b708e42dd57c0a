// What makes a loop iteration observable (SpinLoops.hpp).
#include "checker/SpinLoops.hpp"

#include <algorithm>

namespace ptxmm::checker {
namespace {

namespace value = model::value;

// Values the check tries for the read and for the registers: small and large, both signs, both widths, so an
// operation that is the identity only on some of them (max with 0, min with a 32-bit bound) is caught.
constexpr std::int64_t kSamples[] = {0, 1, 2, 3, 42, 1000, 123456789, 0x7fffffff, 0x123456789a,
                                     -1, -2, -42, -123456789, -0x7fffffff - 1, -0x123456789a};

// The width a kernel's typed atomic wraps its result to (InstructionSemantics: `(v << k) >> k` with k = 64 -
// width), or 64 for an untyped litmus atomic. Its read half returns canonical values of that width only (the
// kernel reader's contract), so only those are tried: a wrapped `atom.add.u32 0` is the identity on them.
int wrapWidth(const model::ValuePtr& v) {
  if (v->op != model::ValueOp::Shr || v->args[0]->op != model::ValueOp::Shl) return 64;
  const auto& k = v->args[1];
  const auto& inner = v->args[0]->args[1];
  if (k->op != model::ValueOp::Const || inner->op != model::ValueOp::Const || k->constant != inner->constant) return 64;
  return k->constant > 0 && k->constant < 64 ? static_cast<int>(64 - k->constant) : 64;
}

// x as a canonical `width`-bit value: its low bits, sign-extended.
std::int64_t canonical(std::int64_t x, int width) {
  if (width >= 64) return x;
  const auto shift = static_cast<unsigned>(64 - width);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << shift) >> shift;
}

// Whether `e`'s scope holds thread `t` (§1.1; an event without a scope tag is not strong).
bool scopeHolds(const model::EventGraph& g, const model::Event& e, int t) {
  const model::ThreadGraph& a = g.threads[static_cast<std::size_t>(e.thread)];
  const model::ThreadGraph& b = g.threads[static_cast<std::size_t>(t)];
  if (e.is(model::Tag::SYS)) return true;
  if (e.is(model::Tag::GPU)) return a.gpu == b.gpu;
  if (e.is(model::Tag::CLUSTER)) return a.cluster == b.cluster;
  if (e.is(model::Tag::CTA)) return a.cta == b.cta;
  return false;
}

// Whether every write of the RMW write `w`'s location by another thread is morally strong with it (§2.3): both
// strong, each in the other's scope, the same virtual address, both of the generic proxy. This is the condition
// of the soundness argument in SpinLoops.hpp: then the RMW's atomicity keeps every other thread's write out of
// the co interval between the value it read and its write-back. A write of its own thread cannot sit there
// either (po-loc: one before the RMW is co-before the write it read, one after it is co-after the write-back).
// A racy poll (a weak or narrower-scoped writer) is not reduced: its loop is unrolled like any other.
bool strongPeersOnly(const model::EventGraph& g, const model::Event& w) {
  const auto strong = [](const model::Event& e) { return !e.is(model::Tag::WEAK) && e.is(model::Tag::GEN); };
  if (!strong(w)) return false;
  for (const model::Event& o : g.events) {
    if (!o.is(model::Tag::W) || o.thread < 0 || o.thread == w.thread || o.paddr != w.paddr) continue;
    if (!strong(o) || o.vaddr != w.vaddr || !scopeHolds(g, w, o.thread) || !scopeHolds(g, o, w.thread)) return false;
  }
  return true;
}

}  // namespace

int rmwRead(const model::EventGraph& g, int event) {
  const model::Event& w = g.events[static_cast<std::size_t>(event)];
  if (!w.is(model::Tag::W) || w.thread < 0) return -1;
  // The read just before the write in the same node, at the same location.
  const auto& node = g.threads[static_cast<std::size_t>(w.thread)].nodes[static_cast<std::size_t>(w.node)];
  const auto at = std::find(node.events.begin(), node.events.end(), event);
  if (at == node.events.begin() || at == node.events.end()) return -1;
  const model::Event& r = g.events[static_cast<std::size_t>(*(at - 1))];
  return r.is(model::Tag::R) && r.paddr == w.paddr ? *(at - 1) : -1;
}

bool unchangingWrite(const model::EventGraph& g, int event) {
  const model::Event& w = g.events[static_cast<std::size_t>(event)];
  if (!w.value) return false;
  const int read = rmwRead(g, event);
  if (read < 0 || !strongPeersOnly(g, w)) return false;
  const int width = wrapWidth(w.value);
  const std::size_t regs = g.threads[static_cast<std::size_t>(w.thread)].registers.size();
  const std::size_t n = std::size(kSamples);
  // Register assignments: all alike, and spread over the samples.
  for (std::size_t a = 0; a < 2 * n; ++a) {
    std::vector<model::ValuePtr> regValues;
    for (std::size_t r = 0; r < regs; ++r) regValues.push_back(value::constant(kSamples[a < n ? a : (a + 7 * r) % n]));
    const model::ValuePtr v = value::substitute(w.value, regValues);
    const model::ValuePtr happens = w.existsIf ? value::substitute(w.existsIf, regValues) : nullptr;
    std::vector<std::int64_t> tries(std::begin(kSamples), std::end(kSamples));
    // A compare-and-swap writes only when the read equals the compare operand: try that value too.
    if (happens && happens->op == model::ValueOp::Eq)
      for (const auto& side : happens->args)
        if (auto c = value::evaluate(side, [](int) { return std::optional<std::int64_t>(); })) tries.push_back(*c);
    for (std::int64_t sample : tries) {
      const std::int64_t x = canonical(sample, width);
      auto readValue = [&](int e) { return e == read ? std::optional(x) : std::nullopt; };
      if (happens) {
        const auto h = value::evaluate(happens, readValue);
        if (!h) return false;
        if (*h == 0) continue;
      }
      const auto written = value::evaluate(v, readValue);
      if (!written || *written != x) return false;
    }
  }
  return true;
}

bool observableEvent(const model::EventGraph& g, int event) {
  const model::Event& e = g.events[static_cast<std::size_t>(event)];
  if (e.is(model::Tag::BA) || e.is(model::Tag::BW)) return true;
  return e.is(model::Tag::W) && !unchangingWrite(g, event);
}

bool writeBackCandidate(const model::EventGraph& g, int event) {
  const model::Event& e = g.events[static_cast<std::size_t>(event)];
  return !e.is(model::Tag::BA) && !e.is(model::Tag::BW) && e.value && rmwRead(g, event) >= 0 && strongPeersOnly(g, e) &&
         !unchangingWrite(g, event);
}

bool observableAssignment(const model::LoopInfo& loop, int reg) {
  return std::find(loop.liveAtHeader.begin(), loop.liveAtHeader.end(), reg) != loop.liveAtHeader.end();
}

}  // namespace ptxmm::checker
