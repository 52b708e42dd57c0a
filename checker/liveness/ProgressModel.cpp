// Parsing progress models and deciding whether a schedule is fair under one (ProgressModel.hpp).
#include "checker/liveness/ProgressModel.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace ptxmm::checker::liveness {
namespace {

const std::vector<std::pair<std::string, Progress>>& names() {
  static const std::vector<std::pair<std::string, Progress>> n{
      {"fair", Progress::Fair}, {"hsa", Progress::Hsa},   {"obe", Progress::Obe},
      {"hsa_obe", Progress::HsaObe}, {"lobe", Progress::Lobe}, {"unfair", Progress::Unfair}};
  return n;
}

std::string nameOf(Progress p) {
  for (const auto& [n, q] : names())
    if (q == p) return n;
  return "fair";
}

std::optional<Progress> progressNamed(const std::string& s) {
  for (const auto& [n, q] : names())
    if (n == s) return q;
  return std::nullopt;
}

// A member of a group: a thread (leaf) or a group of the next level down.
struct Member {
  int id = 0;  // the lowest thread index in it: the order HSA and LOBE go by
  bool started = false;
  bool schedulable = false;  // neither exited nor blocked
  bool canProgress = true;   // it can be given progress without contradiction (a leaf: it is not Stopped)
};

// Whether a group holding `members` can be given progress under `p`: every member the model forces gets it,
// and (minimal progress) some schedulable member gets it when any is schedulable.
bool groupCanProgress(Progress p, std::vector<Member> members) {
  std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) { return a.id < b.id; });
  bool anySchedulable = false, someSchedulableProgresses = false;
  for (std::size_t i = 0; i < members.size(); ++i) {
    bool lowerSchedulable = false, laterStarted = false;
    for (std::size_t j = 0; j < i; ++j) lowerSchedulable |= members[j].schedulable;
    for (std::size_t j = i; j < members.size(); ++j) laterStarted |= members[j].started;
    const Member& m = members[i];
    bool forced = false;
    switch (p) {
      case Progress::Fair: forced = true; break;
      case Progress::Hsa: forced = !lowerSchedulable; break;
      case Progress::Obe: forced = m.started; break;
      case Progress::HsaObe: forced = !lowerSchedulable || m.started; break;
      case Progress::Lobe: forced = laterStarted; break;
      case Progress::Unfair: forced = false; break;
    }
    if (forced && !m.canProgress) return false;
    anySchedulable |= m.schedulable;
    someSchedulableProgresses |= m.schedulable && m.canProgress;
  }
  return !anySchedulable || someSchedulableProgresses;
}

Member fold(int id, const std::vector<Member>& members, Progress p) {
  Member g;
  g.id = id;
  for (const Member& m : members) {
    g.started |= m.started;
    g.schedulable |= m.schedulable;
  }
  g.canProgress = groupCanProgress(p, members);
  return g;
}

}  // namespace

std::string ProgressModel::name() const {
  if (cta == gpu && gpu == sys) return nameOf(cta);
  return "cta=" + nameOf(cta) + ",gpu=" + nameOf(gpu) + ",sys=" + nameOf(sys);
}

std::optional<ProgressModel> parseProgressModel(const std::string& text, std::string& error) {
  const std::string expected = "expected fair, hsa, obe, hsa_obe, lobe or unfair, or LEVEL=MODEL,... with LEVEL cta, gpu or sys";
  if (auto p = progressNamed(text)) return ProgressModel{*p, *p, *p};
  ProgressModel m;
  std::istringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    const auto p = eq == std::string::npos ? std::nullopt : progressNamed(item.substr(eq + 1));
    const std::string level = eq == std::string::npos ? "" : item.substr(0, eq);
    Progress* slot = level == "cta" ? &m.cta : level == "gpu" ? &m.gpu : level == "sys" ? &m.sys : nullptr;
    if (!p || !slot) {
      error = "'" + item + "': " + expected;
      return std::nullopt;
    }
    *slot = *p;
    any = true;
  }
  if (!any) {
    error = "'" + text + "': " + expected;
    return std::nullopt;
  }
  return m;
}

bool admits(const ProgressModel& model, const model::EventGraph& graph, const std::vector<ThreadStatus>& status) {
  // Threads -> CTAs -> GPUs -> the system, each level folded with its model.
  std::map<int, std::vector<Member>> perCta;
  std::map<int, int> ctaGpu;
  for (std::size_t t = 0; t < status.size(); ++t) {
    const auto& tg = graph.threads[t];
    const ThreadStatus& s = status[t];
    Member m;
    m.id = static_cast<int>(t);
    m.started = s.started;
    m.schedulable = s.state == ThreadState::Spinning || s.state == ThreadState::Stopped;
    m.canProgress = s.state != ThreadState::Stopped;
    perCta[tg.cta].push_back(m);
    ctaGpu[tg.cta] = tg.gpu;
  }
  std::map<int, std::vector<Member>> perGpu;
  for (const auto& [cta, members] : perCta)
    perGpu[ctaGpu[cta]].push_back(fold(members.front().id, members, model.cta));
  std::vector<Member> gpus;
  for (const auto& [gpu, members] : perGpu) {
    int id = members.front().id;
    for (const Member& m : members) id = std::min(id, m.id);
    gpus.push_back(fold(id, members, model.gpu));
  }
  return groupCanProgress(model.sys, gpus);
}

}  // namespace ptxmm::checker::liveness
