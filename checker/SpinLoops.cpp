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

// The read half of the read-modify-write whose write half is `w`: the read just before it in the same node, at
// the same location.
int rmwRead(const model::EventGraph& g, const model::Event& w, int event) {
  const auto& node = g.threads[static_cast<std::size_t>(w.thread)].nodes[static_cast<std::size_t>(w.node)];
  const auto at = std::find(node.events.begin(), node.events.end(), event);
  if (at == node.events.begin() || at == node.events.end()) return -1;
  const model::Event& r = g.events[static_cast<std::size_t>(*(at - 1))];
  return r.is(model::Tag::R) && r.paddr == w.paddr ? *(at - 1) : -1;
}

}  // namespace

bool unchangingWrite(const model::EventGraph& g, int event) {
  const model::Event& w = g.events[static_cast<std::size_t>(event)];
  if (!w.is(model::Tag::W) || w.thread < 0 || !w.value) return false;
  const int read = rmwRead(g, w, event);
  if (read < 0) return false;
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
    for (std::int64_t x : tries) {
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

bool observableAssignment(const model::LoopInfo& loop, int reg) {
  return std::find(loop.liveAtHeader.begin(), loop.liveAtHeader.end(), reg) != loop.liveAtHeader.end();
}

}  // namespace ptxmm::checker
