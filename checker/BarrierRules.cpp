// Barrier classes, counts and static users (BarrierRules.hpp).
#include "checker/BarrierRules.hpp"

#include <set>

namespace ptxmm::checker {

BarrierClass barrierClass(const model::EventGraph& graph, const model::Event& e) {
  const model::BarrierSpec& b = *e.barrier;
  const BarrierKind kind = b.count ? BarrierKind::Counted : b.quorum ? BarrierKind::Quorum : BarrierKind::All;
  return {graph.barrierDomain(e), b.label, kind};
}

std::optional<std::int64_t> countedSize(const model::EventGraph& graph, std::int64_t count) {
  const std::int64_t per = graph.threadsPerArrival();
  if (count <= 0 || count % per != 0) return std::nullopt;
  return count / per;
}

std::vector<StaticUse> staticUses(const model::EventGraph& graph) {
  std::vector<StaticUse> out;
  std::set<std::pair<int, int>> seen;  // (thread, node's instruction): an unrolled instruction counts once
  auto constant = [](const model::ValuePtr& v) { return v && v->op == model::ValueOp::Const; };
  for (const auto& e : graph.events) {
    if (!e.is(model::Tag::BA)) continue;
    const model::BarrierSpec& b = *e.barrier;
    const model::ValuePtr& size = b.count ? b.count : b.quorum;
    if (!constant(b.id) || (size && !constant(size))) continue;
    const int instr = graph.threads[static_cast<std::size_t>(e.thread)].nodes[static_cast<std::size_t>(e.node)].instr;
    if (!seen.emplace(e.thread, instr).second) continue;
    StaticUse use{e.thread, barrierClass(graph, e), b.id->constant, std::nullopt, b.aligned};
    if (size) use.size = size->constant;
    out.push_back(use);
  }
  return out;
}

}  // namespace ptxmm::checker
