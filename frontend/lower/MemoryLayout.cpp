// The scope tree and the memory layout of a test (MemoryLayout.hpp).
#include "frontend/lower/MemoryLayout.hpp"

#include <algorithm>
#include <optional>

namespace ptxmm::frontend {
namespace {

using model::Event;
using model::EventGraph;
using model::Tag;
using model::tagBit;
using model::UserError;

// Addresses are multiples of a page, far from the small values litmus tests compute with.
constexpr std::int64_t kAddressStride = 0x1000;

int defaultSize(LocationKind kind) { return kind == LocationKind::MBarrier ? 8 : 4; }

// The CTA instance of a user-written (gpu, cta), or a fresh one when no thread runs there (a location can live
// in such a CTA's shared memory; nothing can reach it from another cluster anyway).
int ctaInstance(const Program& program, const EventGraph& g, int gpu, int cta, int& fresh) {
  for (const auto& t : program.threads)
    if (t.gpu == gpu && t.cta == cta) return g.threads[static_cast<std::size_t>(t.index)].cta;
  return fresh++;
}

// A location declared without a state space but accessed with .shared / .shared::cta lives in the shared
// memory of the CTA that accesses it so (litmus tests often write `st.shared x, 1` without declaring x). Returns
// that CTA's user-written (gpu, cta), or nothing; two CTAs claiming it is an error.
std::optional<std::pair<int, int>> inferredOwner(const Program& program, const Location& loc) {
  std::optional<std::pair<int, int>> owner;
  for (const auto& t : program.threads)
    for (const auto& in : t.code) {
      if (in.space != StateSpace::Shared && in.space != StateSpace::SharedCta) continue;
      // A bulk copy's state space is its destination's (cp.async.bulk.shared::cta.global [dst], [src], ...).
      const std::size_t spaced = in.op == Opcode::BulkCopy ? 1 : in.operands.size();
      for (std::size_t i = 0; i < spaced; ++i) {
        const Operand& o = in.operands[i];
        if (o.kind != Operand::Kind::Location || o.name != loc.name) continue;
        const std::pair claim{t.gpu, t.cta};
        if (owner && *owner != claim)
          throw UserError(o.pos, "'" + loc.name + "' is accessed as .shared::cta memory by two CTAs; declare the CTA "
                                 "that holds it (" + loc.name + " @ shared cta N = 0) and use .shared::cluster from the other");
        owner = claim;
      }
    }
  return owner;
}

bool usesClusterBarrier(const Thread& t) {
  return std::any_of(t.code.begin(), t.code.end(), [](const Instruction& in) {
    return in.op == Opcode::ClusterArrive || in.op == Opcode::ClusterWait;
  });
}

}  // namespace

std::int64_t addressValue(const Address& a) { return kAddressStride * (a.vaddr + 1); }

void placeThreads(const Program& program, EventGraph& g) {
  std::map<std::pair<int, int>, int> ctas;
  std::map<std::pair<int, int>, int> namedClusters;
  std::map<std::pair<int, int>, int> namedWarps;  // (cta instance, warp) -> warp instance
  std::map<int, int> gpus;
  std::map<int, int> clusterOfCta;
  int clusters = 0, warps = 0;
  for (const auto& t : program.threads) {
    auto& tg = g.threads[static_cast<std::size_t>(t.index)];
    tg.gpu = gpus.emplace(t.gpu, static_cast<int>(gpus.size())).first->second;
    const auto [ctaIt, newCta] = ctas.emplace(std::pair{t.gpu, t.cta}, static_cast<int>(ctas.size()));
    tg.cta = ctaIt->second;
    int cluster;
    if (t.cluster) {
      auto [it, inserted] = namedClusters.emplace(std::pair{t.gpu, *t.cluster}, clusters);
      if (inserted) ++clusters;
      cluster = it->second;
    } else {
      cluster = newCta ? clusters++ : clusterOfCta.at(tg.cta);
    }
    auto [it, inserted] = clusterOfCta.emplace(tg.cta, cluster);
    if (!inserted && it->second != cluster)
      throw UserError(t.pos, "CTA " + std::to_string(t.cta) + " of gpu " + std::to_string(t.gpu) +
                                 " is placed in two different clusters");
    tg.cluster = cluster;
    // Litmus threads stand for warps; threads naming the same warp of a CTA are lanes of one warp.
    tg.warp = t.warp ? namedWarps.emplace(std::pair{tg.cta, *t.warp}, warps).first->second : warps;
    if (!t.warp || tg.warp == warps) ++warps;
  }
}

Layout layOutMemory(const Program& program, EventGraph& g) {
  Layout layout;
  int freshCta = 0;
  for (const auto& t : g.threads) freshCta = std::max(freshCta, t.cta + 1);
  std::vector<int> primaryVaddr;
  std::vector<Tag> space;  // per physical location: GLOBAL, SHARED or TMEM
  auto newPhysical = [&](const std::string& name, std::int64_t init, int owner, Tag where) {
    g.virtualNames.push_back(name);
    g.physicalNames.push_back(name);
    g.initValues.push_back(init);
    g.ownerCta.push_back(where == Tag::SHARED ? owner : -1);
    space.push_back(where);
    primaryVaddr.push_back(static_cast<int>(g.virtualNames.size() - 1));
    return std::pair{primaryVaddr.back(), static_cast<int>(g.physicalNames.size() - 1)};
  };
  for (const auto& loc : program.locations) {
    Address a;
    if (loc.aliasProxy) {
      a = layout.addresses.at(loc.aliasOf);
      // A generic alias is another virtual address of the location; any other proxy names the same one.
      if (*loc.aliasProxy == model::Proxy::Generic) {
        g.virtualNames.push_back(loc.name);
        a.vaddr = static_cast<int>(g.virtualNames.size() - 1);
      }
    } else {
      a.kind = loc.kind;
      a.size = loc.size;
      if (loc.ownerCta) {
        a.ownerCta = ctaInstance(program, g, loc.ownerGpu, *loc.ownerCta, freshCta);
      } else if (loc.kind == LocationKind::Memory) {
        if (const auto owner = inferredOwner(program, loc)) a.ownerCta = ctaInstance(program, g, owner->first, owner->second, freshCta);
      }
      const Tag where = loc.kind == LocationKind::Tmem ? Tag::TMEM : a.ownerCta >= 0 ? Tag::SHARED : Tag::GLOBAL;
      std::tie(a.vaddr, a.paddr) = newPhysical(loc.name, loc.init, a.ownerCta, where);
      if (a.size == 4) a.size = defaultSize(loc.kind);
    }
    a.name = loc.name;
    a.pos = loc.pos;
    layout.addresses[loc.name] = a;
    g.locationNames.emplace_back(loc.name, a.paddr);
  }
  for (const auto& loc : program.locations)
    if (!loc.addressOf.empty())
      g.initValues[static_cast<std::size_t>(layout.addresses.at(loc.name).paddr)] = addressValue(layout.addresses.at(loc.addressOf));
  for (const auto& t : program.threads) {
    const int cluster = g.threads[static_cast<std::size_t>(t.index)].cluster;
    if (!usesClusterBarrier(t) || layout.clusterBarriers.count(cluster)) continue;
    Address a;
    a.name = "barrier.cluster#" + std::to_string(cluster);
    std::tie(a.vaddr, a.paddr) = newPhysical(a.name, 0, -1, Tag::SHARED);
    layout.clusterBarriers[cluster] = a;
  }
  for (std::size_t p = 0; p < g.physicalNames.size(); ++p) {
    Event init;
    init.tags = tagBit(Tag::W) | tagBit(Tag::I) | tagBit(Tag::GEN) | tagBit(space[p]);
    init.vaddr = primaryVaddr[p];
    init.paddr = static_cast<int>(p);
    init.value = model::value::constant(g.initValues[p]);
    init.label = "init " + g.physicalNames[p] + " = " + std::to_string(g.initValues[p]);
    g.events.push_back(std::move(init));
  }
  return layout;
}

}  // namespace ptxmm::frontend
