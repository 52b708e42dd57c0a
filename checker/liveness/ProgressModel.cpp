// Parsing progress models and deciding whether a schedule is fair under one (ProgressModel.hpp).
#include "checker/liveness/ProgressModel.hpp"

#include "checker/liveness/ProgressRules.hpp"

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
  std::vector<Member<bool>> threads;
  for (std::size_t t = 0; t < status.size(); ++t) {
    const ThreadStatus& s = status[t];
    threads.push_back({static_cast<int>(t), s.started,
                       s.state == ThreadState::Spinning || s.state == ThreadState::Stopped,
                       s.state != ThreadState::Stopped});
  }
  return hierarchyCanProgress(model, graph, threads, true, false);
}

}  // namespace ptxmm::checker::liveness
