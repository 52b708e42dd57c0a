// What each definition needs (DefinitionOrder.hpp).
#include "model/DefinitionOrder.hpp"

#include <algorithm>

#include "model/Overloaded.hpp"

namespace ptxmm::model {

DefinitionOrder::DefinitionOrder(const CatModel& model) : needs_(model.defs.size()) {
  auto sameGroup = [&](std::size_t a, std::size_t b) {
    return model.defs[a].recGroup >= 0 && model.defs[a].recGroup == model.defs[b].recGroup;
  };
  for (std::size_t i = 0; i < model.defs.size(); ++i) {
    if (!model.defs[i].expr) continue;
    std::vector<const RelExpr*> pending{model.defs[i].expr.get()};
    while (!pending.empty()) {
      const RelExpr* e = pending.back();
      pending.pop_back();
      std::visit(Overloaded{
                     [&](const ir::DefRef& d) {
                       if (!sameGroup(i, d.index)) needs_[i].push_back(d.index);
                     },
                     [&](const ir::Unary& u) { pending.push_back(u.arg.get()); },
                     [&](const ir::Binary& b) {
                       pending.push_back(b.rhs.get());
                       pending.push_back(b.lhs.get());
                     },
                     [](const auto&) {},
                 },
                 e->node);
    }
  }
  // A member of a `let rec` needs what any member needs: computing one computes the group.
  for (const RecGroup& g : model.recGroups) {
    std::vector<std::size_t> all;
    for (auto d : g.defs) all.insert(all.end(), needs_[d].begin(), needs_[d].end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    for (auto d : g.defs) needs_[d] = all;
  }
}

}  // namespace ptxmm::model
