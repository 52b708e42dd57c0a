// The rules of progress models over any Boolean algebra: with bool the explicit search decides a schedule
// (ProgressModel.cpp's admits), with z3::expr the Z3 encoding states the same rules as a formula, so both engines
// use one definition. A group (a CTA, a GPU, the system) that gets progress passes it to the members its model
// forces, and to at least one member that can move when any can (minimal progress).
#pragma once

#include <algorithm>
#include <map>
#include <vector>

#include "checker/liveness/ProgressModel.hpp"

namespace ptxmm::checker::liveness {

/// A member of a group: a thread (leaf) or a group of the next level down.
template <class B>
struct Member {
  int id = 0;        // the lowest thread index in it: the order HSA and LOBE go by
  B started;         // made at least one step
  B schedulable;     // neither exited nor blocked
  B canProgress;     // it can be given progress without contradiction (a leaf: it is not Stopped)
};

/// Whether a group holding `members` (sorted by id) can be given progress under `p`.
template <class B>
B groupCanProgress(Progress p, const std::vector<Member<B>>& members, const B& yes, const B& no) {
  B ok = yes, anySchedulable = no, someSchedulableProgresses = no;
  for (std::size_t i = 0; i < members.size(); ++i) {
    B lowerSchedulable = no, laterStarted = no;
    for (std::size_t j = 0; j < i; ++j) lowerSchedulable = lowerSchedulable || members[j].schedulable;
    for (std::size_t j = i; j < members.size(); ++j) laterStarted = laterStarted || members[j].started;
    const Member<B>& m = members[i];
    B forced = no;
    switch (p) {
      case Progress::Fair: forced = yes; break;
      case Progress::Hsa: forced = !lowerSchedulable; break;
      case Progress::Obe: forced = m.started; break;
      case Progress::HsaObe: forced = !lowerSchedulable || m.started; break;
      case Progress::Lobe: forced = laterStarted; break;
      case Progress::Unfair: break;
    }
    ok = ok && (!forced || m.canProgress);
    anySchedulable = anySchedulable || m.schedulable;
    someSchedulableProgresses = someSchedulableProgresses || (m.schedulable && m.canProgress);
  }
  return ok && (!anySchedulable || someSchedulableProgresses);
}

/// Whether the threads, given as leaves (one per thread of `graph`, in thread order), can be scheduled as the
/// model says: threads -> CTAs -> GPUs -> the system, each level under its own model.
template <class B>
B hierarchyCanProgress(const ProgressModel& model, const model::EventGraph& graph, const std::vector<Member<B>>& threads,
                       const B& yes, const B& no) {
  auto fold = [&](const std::vector<Member<B>>& members, Progress p) {
    Member<B> g{members.front().id, no, no, groupCanProgress(p, members, yes, no)};
    for (const auto& m : members) {
      g.started = g.started || m.started;
      g.schedulable = g.schedulable || m.schedulable;
    }
    return g;
  };
  std::map<int, std::vector<Member<B>>> perCta;
  std::map<int, int> ctaGpu;
  for (std::size_t t = 0; t < threads.size(); ++t) {
    perCta[graph.threads[t].cta].push_back(threads[t]);
    ctaGpu[graph.threads[t].cta] = graph.threads[t].gpu;
  }
  std::map<int, std::vector<Member<B>>> perGpu;
  for (const auto& [cta, members] : perCta) perGpu[ctaGpu[cta]].push_back(fold(members, model.cta));
  std::vector<Member<B>> gpus;
  for (auto& [gpu, members] : perGpu) {
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    gpus.push_back(fold(members, model.gpu));
  }
  std::sort(gpus.begin(), gpus.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return groupCanProgress(model.sys, gpus, yes, no);
}

}  // namespace ptxmm::checker::liveness
