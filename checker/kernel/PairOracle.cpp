// Moral strength and race kinds from the model, per pair signature (PairOracle.hpp).
#include "checker/kernel/PairOracle.hpp"

#include "checker/Execution.hpp"
#include "checker/RaceFinder.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// Where the owner of the pair's shared location sits relative to the two threads (the `owner` base relation).
// Fences and mbarrier success markers have no location: the other event's is the pair's.
int ownerCode(const model::EventGraph& g, const model::Event& a, const model::Event& b, int ctaA, int ctaB) {
  const int paddr = a.paddr >= 0 ? a.paddr : b.paddr;
  if (paddr < 0) return 0;
  const int owner = g.ownerCta[static_cast<std::size_t>(paddr)];
  if (owner < 0) return 0;
  return owner == ctaA ? 1 : owner == ctaB ? 2 : 3;
}

const model::Value& definition(model::Evaluator& ev, const model::CatModel& m, const std::string& name) {
  const int d = m.findDef(name);
  if (d < 0) throw model::UserError({m.file, 1, 1}, "the model defines no '" + name + "' relation, which kernel checks need");
  return ev.definition(static_cast<std::size_t>(d));
}

bool related(const model::Value& v, std::size_t a, std::size_t b) {
  const auto& m = std::get<model::BitMatrix>(v);
  return m.test(a, b) || m.test(b, a);
}

}  // namespace

PairOracle::PairOracle(const model::CatModel& model, const KernelGraph& kernel) : model_(model), k_(kernel) {
  if (model.findDef("ms") < 0)
    throw model::UserError({model.file, 1, 1}, "the model defines no 'ms' relation, which kernel checks need");
  for (const auto& kind : raceKinds())
    if (model.findDef(kind.definition) < 0)
      throw model::UserError({model.file, 1, 1}, "the model defines no '" + kind.definition + "' relation, which race reports need");
}

std::string PairOracle::signature(int a, int b) const {
  const auto& g = k_.graph();
  const model::Event& ea = g.events[static_cast<std::size_t>(a)];
  const model::Event& eb = g.events[static_cast<std::size_t>(b)];
  const auto& ta = g.threads[static_cast<std::size_t>(ea.thread)];
  const auto& tb = g.threads[static_cast<std::size_t>(eb.thread)];
  const int relation = ea.thread == eb.thread ? 0 : ta.warp == tb.warp ? 1 : ta.cta == tb.cta ? 2 : ta.cluster == tb.cluster ? 3
                       : ta.gpu == tb.gpu ? 4 : 5;
  return ea.tags.to_string() + "|" + eb.tags.to_string() + "|" + std::to_string(relation) + "|" +
         std::to_string(ownerCode(g, ea, eb, ta.cta, tb.cta));
}

const PairVerdict& PairOracle::verdict(int a, int b) {
  if (a > b) std::swap(a, b);
  const std::string key = signature(a, b);
  auto it = cache_.find(key);
  if (it == cache_.end()) it = cache_.emplace(key, evaluate(a, b)).first;
  return it->second;
}

// The canonical execution: one location (initial write first in coherence), the two events in threads placed
// as the originals are in the scope tree, every read reading the initial value, nothing else.
PairVerdict PairOracle::evaluate(int a, int b) const {
  const auto& g = k_.graph();
  const model::Event& ea = g.events[static_cast<std::size_t>(a)];
  const model::Event& eb = g.events[static_cast<std::size_t>(b)];
  const auto& ta = g.threads[static_cast<std::size_t>(ea.thread)];
  const auto& tb = g.threads[static_cast<std::size_t>(eb.thread)];
  const bool same = ea.thread == eb.thread;

  model::EventGraph pg;
  pg.name = "pair";
  pg.threads.resize(same ? 1 : 2);
  pg.threads[0] = {"P0", 0, 0, 0, 0, {}, {}, {}, {}};
  if (!same) {
    const int cta = ta.cta == tb.cta ? 0 : 1;
    const int cluster = ta.cluster == tb.cluster ? 0 : 1;
    pg.threads[1] = {"P1", cta, ta.warp == tb.warp ? 0 : 1, cluster, ta.gpu == tb.gpu ? 0 : 1, {}, {}, {}, {}};
  }
  const int owner = ownerCode(g, ea, eb, ta.cta, tb.cta);
  pg.physicalNames = {"x"};
  pg.virtualNames = {"x"};
  pg.initValues = {0};
  pg.ownerCta = {owner == 0 ? -1 : owner == 1 ? 0 : owner == 2 ? pg.threads.back().cta : 2};
  pg.locationNames = {{"x", 0}};
  model::Event init;
  init.tags = model::tagBit(Tag::W) | model::tagBit(Tag::I) | model::tagBit(Tag::GEN) |
              model::tagBit(owner == 0 ? Tag::GLOBAL : Tag::SHARED);
  init.vaddr = init.paddr = 0;
  init.value = model::value::constant(0);
  pg.events.push_back(init);
  auto copy = [&](const model::Event& e, int thread) {
    model::Event c;
    c.tags = e.tags;
    c.thread = thread;
    c.node = static_cast<int>(pg.events.size());
    c.vaddr = c.paddr = 0;
    c.value = model::value::constant(1);
    c.label = e.label;
    pg.events.push_back(std::move(c));
  };
  copy(ea, 0);
  copy(eb, same ? 0 : 1);

  std::vector<ThreadPath> paths(pg.threads.size());
  paths[0].events.push_back(1);
  paths[same ? 0 : 1].events.push_back(2);
  std::vector<const ThreadPath*> pointers;
  for (const auto& p : paths) pointers.push_back(&p);
  Execution ex(pg, pointers);
  ex.setReadsFrom(std::vector<std::size_t>(ex.reads().size(), 0));
  for (std::size_t i = 1; i < ex.size(); ++i)
    if (ex.event(i).is(Tag::W)) ex.candidate().rel(model::BaseRel::Co).set(0, i);
  model::Evaluator ev(model_);
  ev.reset(ex.candidate());

  PairVerdict v;
  v.morallyStrong = related(definition(ev, model_, "ms"), 1, 2);
  if (model_.findDef("eventually-visible") >= 0) v.eventuallyVisible = related(definition(ev, model_, "eventually-visible"), 1, 2);
  for (const auto& kind : raceKinds())
    if (related(definition(ev, model_, kind.definition), 1, 2)) {
      v.kind = kind.name;
      break;
    }
  return v;
}

}  // namespace ptxmm::checker::kernel
