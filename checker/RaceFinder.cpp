// Race kinds, advice and the collector (RaceFinder.hpp).
#include "checker/RaceFinder.hpp"

namespace ptxmm::checker {
namespace {

using model::Tag;

// The smallest scope containing both threads: what both accesses need for moral strength.
std::string commonScope(const model::EventGraph& g, const model::Event& a, const model::Event& b) {
  const auto& ta = g.threads[static_cast<std::size_t>(a.thread)];
  const auto& tb = g.threads[static_cast<std::size_t>(b.thread)];
  if (ta.cta == tb.cta) return ".cta";
  if (ta.cluster == tb.cluster) return ".cluster";
  if (ta.gpu == tb.gpu) return ".gpu";
  return ".sys";
}

// The proxy an access goes through: any of the proxy table's, generic when it carries no other proxy's tag.
model::Proxy proxyOf(const model::Event& e) {
  for (std::size_t p = 0; p < model::kProxyCount; ++p) {
    const auto proxy = static_cast<model::Proxy>(p);
    if (proxy != model::Proxy::Generic && e.is(model::proxyTag(proxy))) return proxy;
  }
  return model::Proxy::Generic;
}

// The proxy fence that orders generic accesses with accesses of `proxy` [§2.10, §4.9]: the tensor-map proxy needs
// a release after the generic write of the map and an acquire on the map before the TMA reads it.
std::string proxyFence(model::Proxy proxy) {
  if (proxy == model::Proxy::Tensormap)
    return "fence.proxy.tensormap::generic.release, then fence.proxy.tensormap::generic.acquire on the map,";
  return "fence.proxy." + std::string(model::proxyName(proxy));
}

}  // namespace

std::string raceAdvice(const std::string& kind, const model::EventGraph& g, const model::Event& a, const model::Event& b) {
  if (kind == "different proxies") {
    std::string fix = "order the accesses by causality and put a proxy fence on that path:";
    for (const auto* e : {&a, &b}) {
      const model::Proxy p = proxyOf(*e);
      if (p != model::Proxy::Generic)
        fix += " " + proxyFence(p) + " in the CTA of " + g.threads[static_cast<std::size_t>(e->thread)].name + " (" +
               e->label + ");";
    }
    if (a.vaddr != b.vaddr) fix += " fence.proxy.alias between the two virtual addresses;";
    fix.pop_back();
    return fix;
  }
  if (kind == "scope too narrow")
    return "both accesses are strong but their scopes do not include each other's thread: give both scope " +
           commonScope(g, a, b) + " or wider";
  return "make the accesses strong with scope " + commonScope(g, a, b) +
         " or wider, or order them with a release/acquire pattern, a fence pair or a barrier";
}

const std::vector<RaceKind>& raceKinds() {
  static const std::vector<RaceKind> kinds{
      {"different proxies", "race-proxy"},
      {"scope too narrow", "race-scope"},
      {"no synchronisation", "race-unsync"},
  };
  return kinds;
}

RaceCollector::RaceCollector(const model::CatModel& model, const model::EventGraph& graph) : graph_(graph) {
  for (const auto& k : raceKinds()) {
    const int d = model.findDef(k.definition);
    if (d < 0)
      throw model::UserError({model.file, 1, 1}, "the model defines no '" + k.definition +
                                                     "' relation, which race reports need (see model/cat/ptx.cat)");
    definitions_.push_back(static_cast<std::size_t>(d));
  }
}

RaceCollector::InstrId RaceCollector::instrOf(int event) const {
  const auto& e = graph_.events[static_cast<std::size_t>(event)];
  return {e.thread, graph_.threads[static_cast<std::size_t>(e.thread)].nodes[static_cast<std::size_t>(e.node)].instr};
}

std::pair<RaceCollector::InstrId, RaceCollector::InstrId> RaceCollector::key(int a, int b) const {
  auto x = instrOf(a), y = instrOf(b);
  return x < y ? std::pair{x, y} : std::pair{y, x};
}

bool RaceCollector::known(int a, int b) const { return races_.count(key(a, b)) > 0; }

void RaceCollector::add(std::size_t kind, int a, int b, const Witness& witness) {
  if (known(a, b)) return;
  if (instrOf(b) < instrOf(a)) std::swap(a, b);
  const auto& ea = graph_.events[static_cast<std::size_t>(a)];
  const auto& eb = graph_.events[static_cast<std::size_t>(b)];
  auto access = [&](const model::Event& e) {
    return RaceAccess{graph_.threads[static_cast<std::size_t>(e.thread)].name, e.label, e.pos};
  };
  const std::string& name = raceKinds()[kind].name;
  races_.emplace(key(a, b), Race{name, access(ea), access(eb), raceAdvice(name, graph_, ea, eb), witness, {a, b}});
}

std::vector<Race> RaceCollector::races() const {
  std::vector<Race> out;
  for (const auto& [k, r] : races_) out.push_back(r);
  return out;
}

}  // namespace ptxmm::checker
