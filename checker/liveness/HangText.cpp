// The words of a Hang line (HangText.hpp).
#include "checker/liveness/HangText.hpp"

#include <set>

#include "checker/liveness/Liveness.hpp"
#include "model/MbarrierLayout.hpp"

namespace ptxmm::checker::liveness {

std::string pollItem(const model::EventGraph& g, int read, std::optional<std::int64_t> value) {
  const auto& e = g.events[static_cast<std::size_t>(read)];
  const std::string v = !value ? "?" : e.is(model::Tag::MB) ? model::mbar::describe(*value) : std::to_string(*value);
  return g.physicalNames[static_cast<std::size_t>(e.paddr)] + "=" + v;
}

std::string joinItems(const std::vector<std::string>& items) {
  std::string out;
  std::set<std::string> seen;
  for (const auto& item : items)
    if (seen.insert(item).second) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string hiddenWritesText(const model::EventGraph& g, const std::vector<int>& writes) {
  std::string out;
  std::set<int> seen;
  for (int w : writes) {
    if (!seen.insert(w).second) continue;
    const auto& e = g.events[static_cast<std::size_t>(w)];
    out += std::string(out.empty() ? "" : "; ") + g.threads[static_cast<std::size_t>(e.thread)].name + "'s " + e.label +
           " at " + at(e.pos) + " is not eventually visible to it (the model's " + kEventuallyVisible +
           ": not morally strong with the poll — weak, or out of its scope)";
  }
  return out;
}

StuckThread stoppedThread(const model::EventGraph& g, int thread, int last) {
  StuckThread s{g.threads[static_cast<std::size_t>(thread)].name, "not-scheduled", "", {}, ""};
  if (last < 0) {
    s.detail = "never scheduled";
    return s;
  }
  const auto& e = g.events[static_cast<std::size_t>(last)];
  s.instruction = e.label;
  s.pos = e.pos;
  s.detail = "not scheduled again after this instruction";
  return s;
}

std::string at(const model::SourcePos& pos) { return pos.file + ":" + std::to_string(pos.line); }

std::string patternKey(const Hang& h) {
  std::string key = h.kind;
  for (const auto& s : h.threads) key += "|" + s.thread + s.how + at(s.pos) + s.instruction;
  return key;
}

}  // namespace ptxmm::checker::liveness
