// One definition of the static base relations (StaticRelations.hpp).
#include "model/StaticRelations.hpp"

#include <algorithm>

namespace ptxmm::model {
namespace {

bool listed(const std::vector<std::pair<int, int>>& pairs, int a, int b) {
  return std::find(pairs.begin(), pairs.end(), std::pair{a, b}) != pairs.end();
}

}  // namespace

const std::vector<BaseRel>& staticRelations() {
  static const std::vector<BaseRel> rels{BaseRel::Id,   BaseRel::Po,    BaseRel::Rmw,  BaseRel::Addr,
                                         BaseRel::Loc,  BaseRel::Vloc,  BaseRel::Int,  BaseRel::Scta,
                                         BaseRel::Scluster, BaseRel::Sgpu, BaseRel::Instr, BaseRel::Owner,
                                         BaseRel::Iss,  BaseRel::Aint,  BaseRel::Adone};
  return rels;
}

bool staticRelation(const EventGraph& g, BaseRel rel, int a, int b) {
  const Event& x = g.events[static_cast<std::size_t>(a)];
  const Event& y = g.events[static_cast<std::size_t>(b)];
  const bool threads = x.thread >= 0 && y.thread >= 0;
  auto thread = [&](const Event& e) -> const ThreadGraph& { return g.threads[static_cast<std::size_t>(e.thread)]; };
  switch (rel) {
    case BaseRel::Id: return a == b;
    case BaseRel::Loc: return x.paddr >= 0 && x.paddr == y.paddr;
    case BaseRel::Vloc: return x.vaddr >= 0 && x.vaddr == y.vaddr;
    case BaseRel::Int: return threads && x.thread == y.thread;
    case BaseRel::Scta: return threads && thread(x).cta == thread(y).cta;
    case BaseRel::Scluster: return threads && thread(x).cluster == thread(y).cluster;
    case BaseRel::Sgpu: return threads && thread(x).gpu == thread(y).gpu;
    // Event ids follow a topological order of each thread's DAG, so po is id order on a path; asynchronous
    // accesses are not in po [§2.2].
    case BaseRel::Po: return threads && x.thread == y.thread && a < b && !x.is(Tag::AS) && !y.is(Tag::AS);
    case BaseRel::Instr: return threads && x.thread == y.thread && x.node == y.node;
    case BaseRel::Rmw:
      return threads && x.thread == y.thread && x.node == y.node && x.is(Tag::R) && y.is(Tag::W) && x.paddr >= 0 &&
             x.paddr == y.paddr;
    case BaseRel::Owner:
      return x.paddr >= 0 && y.thread >= 0 && g.ownerCta[static_cast<std::size_t>(x.paddr)] == thread(y).cta;
    case BaseRel::Iss: return listed(g.iss, a, b);
    case BaseRel::Aint: return listed(g.aint, a, b);
    case BaseRel::Adone: return listed(g.adone, a, b);
    case BaseRel::Addr:
    case BaseRel::Data:
    case BaseRel::Ctrl:
    case BaseRel::Rf:
    case BaseRel::Syncbar:
    case BaseRel::SyncFence:
    case BaseRel::Co: return false;
  }
  return false;
}

}  // namespace ptxmm::model
