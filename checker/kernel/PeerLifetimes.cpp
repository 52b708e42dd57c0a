// Peer accesses against the owner's exit (PeerLifetimes.hpp).
#include "checker/kernel/PeerLifetimes.hpp"

#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace ptxmm::checker::kernel {

PeerLifetimes::PeerLifetimes(const KernelGraph& kernel, const BarrierPhases& phases, std::function<bool(int, int)> before)
    : k_(kernel), phases_(phases), before_(std::move(before)) {}

std::vector<PeerLifetimes::Gap> PeerLifetimes::gaps() {
  const frontend::KernelProgram& kp = k_.kernel();
  std::map<int, std::vector<int>> ctaThreads;  // the graph's threads of each CTA
  for (std::size_t t = 0; t < kp.threads.size(); ++t) ctaThreads[kp.threads[t].cta].push_back(static_cast<int>(t));
  std::vector<Gap> found;
  std::set<std::tuple<std::string, int, int>> decided;  // (file, line, owner CTA): proved or a gap already
  const auto& events = k_.graph().events;
  for (std::size_t e = k_.graph().initCount(); e < events.size(); ++e) {
    const model::Event& ev = events[e];
    if (ev.thread < 0 || ev.paddr < 0 || !(ev.is(model::Tag::R) || ev.is(model::Tag::W))) continue;
    const int location = k_.locationOfPhysical(ev.paddr);
    if (location < 0) continue;  // a cluster barrier's virtual location
    const frontend::Buffer& buffer = kp.buffers[static_cast<std::size_t>(kp.locations[static_cast<std::size_t>(location)].buffer)];
    const int owner = buffer.ownerCta;
    if (buffer.space != frontend::Buffer::Space::Shared || owner < 0 || owner == kp.threads[static_cast<std::size_t>(ev.thread)].cta)
      continue;
    if (phases_.unreachable(static_cast<int>(e))) continue;
    const KernelPosition at = k_.position(static_cast<int>(e));
    const auto key = std::tuple{at.file, at.line, owner};
    if (decided.count(key)) continue;
    for (int q : ctaThreads[owner])
      if (!beforeExitOf(static_cast<int>(e), q)) {
        found.push_back({static_cast<int>(e), q});
        decided.insert(key);
        break;
      }
  }
  return found;
}

bool PeerLifetimes::beforeExitOf(int a, int q) {
  for (int e : sureEvents(q))
    if (before_(a, e)) return true;
  return false;
}

const std::vector<int>& PeerLifetimes::sureEvents(int q) {
  if (const auto it = sureEvents_.find(q); it != sureEvents_.end()) return it->second;
  std::vector<int>& sure = sureEvents_[q];
  const auto& nodes = k_.graph().threads[static_cast<std::size_t>(q)].nodes;
  for (auto n = nodes.rbegin(); n != nodes.rend(); ++n)
    for (auto x = n->events.rbegin(); x != n->events.rend(); ++x)
      if (!k_.event(*x).is(model::Tag::AS) && !k_.event(*x).existsIf && k_.unconditional(*x) && !k_.inLoop(*x) &&
          !phases_.unreachable(*x))
        sure.push_back(*x);
  return sure;
}

}  // namespace ptxmm::checker::kernel
