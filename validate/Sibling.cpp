// Weakening the synchronisation of a test, one step at a time (Sibling.hpp).
#include "validate/Sibling.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace ptxmm::validate {

using frontend::Instruction;
using frontend::Opcode;
using frontend::Program;
using frontend::Sem;

namespace {

// One weakening: the instructions it touches, by (thread, index), and whether they go away or become relaxed.
struct Step {
  int strength = 0;  // higher first
  std::vector<std::pair<int, int>> at;
  bool remove = false;
};

// How strong a synchronising instruction is; 0 for instructions that do not synchronise. Hopper-era ones: proxy
// and restricted fences and completion waits (cp.async / bulk wait_group) rank with release/acquire fences,
// release mbarrier and cluster arrives and acquire mbarrier waits with release/acquire accesses. The
// fence.mbarrier_init that publishes an mbarrier and the waits of mbarrier and cluster barriers stay: without
// them the test would use an object before its initialisation or leave its barrier phases.
int strength(const Instruction& in) {
  switch (in.op) {
    case Opcode::FenceProxy: return in.proxy == model::Proxy::Async ? 3 : 0;
    case Opcode::CpAsyncWait: return 3;
    case Opcode::MbarArrive:
    case Opcode::ClusterArrive: return in.sem == Sem::Relaxed ? 0 : 1;
    case Opcode::MbarWait: return in.sem == Sem::Relaxed ? 0 : 1;
    case Opcode::Fence:
      if (in.fenceKind == frontend::FenceKind::MbarrierInit) return 0;
      if (in.fenceKind != frontend::FenceKind::Plain) return 3;
      if (in.sem == Sem::Sc || in.text.rfind("membar", 0) == 0) return 6;
      if (in.sem == Sem::Default || in.sem == Sem::AcqRel) return 4;
      return 3;
    case Opcode::BarSync:
    case Opcode::BarArrive: return 5;
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red: return in.sem == Sem::AcqRel ? 2 : (in.sem == Sem::Acquire || in.sem == Sem::Release) ? 1 : 0;
    default: return 0;
  }
}

// `in` with `.relaxed.SCOPE` written right after the operation word `after` (mbarrier and cluster-barrier
// forms that leave their semantics to the default).
void insertRelaxed(Instruction& in, const std::string& after, const std::string& scope) {
  const auto at = in.text.find(after);
  if (at != std::string::npos) in.text.insert(at + after.size(), ".relaxed" + (scope.empty() ? "" : "." + scope));
}

// The instruction with its release/acquire half replaced by relaxed, keeping the scope.
void relax(Instruction& in) {
  const bool written = in.text.find(".release") != std::string::npos || in.text.find(".acquire") != std::string::npos;
  if (!written && (in.op == Opcode::MbarArrive || in.op == Opcode::MbarWait || in.op == Opcode::ClusterArrive)) {
    // The default .release.cta / .acquire.cta: spell out .relaxed with the scope (barrier.cluster has none).
    const std::string scope = in.op == Opcode::ClusterArrive ? "" : "cta";
    if (in.op == Opcode::ClusterArrive) insertRelaxed(in, "barrier.cluster.arrive", scope);
    else if (in.op == Opcode::MbarArrive) insertRelaxed(in, in.expectTx ? "arrive.expect_tx" : in.drop ? "arrive_drop" : "arrive", scope);
    else insertRelaxed(in, in.parity ? (in.tryWait ? "try_wait.parity" : "test_wait.parity") : (in.tryWait ? "try_wait" : "test_wait"), scope);
    if (in.op != Opcode::ClusterArrive) in.scope = model::Scope::Cta;
    in.sem = Sem::Relaxed;
    return;
  }
  for (const char* word : {"acq_rel", "acquire", "release"})
    if (const auto at = in.text.find(word); at != std::string::npos) {
      in.text.replace(at, std::string(word).size(), "relaxed");
      break;
    }
  in.sem = Sem::Relaxed;
}

std::string where(const Program& p, int t, int i) {
  const auto& in = p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)];
  return p.threads[static_cast<std::size_t>(t)].name + " line " + std::to_string(in.pos.line) + ": " + in.text;
}

Program apply(const Program& original, const std::vector<Step>& steps, std::string& change) {
  Program p = original;
  p.name = original.name + "~sibling";
  std::set<std::pair<int, int>> removed;
  for (const auto& s : steps)
    for (const auto& [t, i] : s.at) {
      if (!change.empty()) change += "; ";
      if (s.remove) {
        removed.emplace(t, i);
        change += where(original, t, i) + " removed";
      } else {
        relax(p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)]);
        change += where(original, t, i) + " -> " + p.threads[static_cast<std::size_t>(t)].code[static_cast<std::size_t>(i)].text;
      }
    }
  // Erase back to front so the remaining indices stay valid; branches name labels, not indices.
  for (auto it = removed.rbegin(); it != removed.rend(); ++it) {
    auto& code = p.threads[static_cast<std::size_t>(it->first)].code;
    code.erase(code.begin() + it->second);
  }
  return p;
}

}  // namespace

std::vector<SiblingCandidate> siblingCandidates(const Program& program) {
  std::vector<Step> steps;
  std::map<std::pair<int, std::int64_t>, std::size_t> barrierStep;  // (cta, id) -> its step
  for (const auto& t : program.threads)
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const Instruction& in = t.code[i];
      const int s = strength(in);
      if (s == 0) continue;
      const std::pair<int, int> at{t.index, static_cast<int>(i)};
      if (in.op == Opcode::BarSync || in.op == Opcode::BarArrive) {
        // A barrier goes for all its participants at once: one left behind could wait forever.
        const std::pair<int, std::int64_t> key{t.cta, in.operands.empty() ? 0 : in.operands[0].value};
        const auto [found, fresh] = barrierStep.emplace(key, steps.size());
        if (fresh) steps.push_back({s, {}, true});
        steps[found->second].at.push_back(at);
        continue;
      }
      steps.push_back({s, {at}, in.op == Opcode::Fence || in.op == Opcode::FenceProxy || in.op == Opcode::CpAsyncWait});
    }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.strength > b.strength; });
  std::vector<SiblingCandidate> out;
  for (const auto& s : steps) {
    SiblingCandidate c;
    c.program = apply(program, {s}, c.change);
    out.push_back(std::move(c));
  }
  if (steps.size() > 1) {
    SiblingCandidate c;
    c.program = apply(program, steps, c.change);
    out.push_back(std::move(c));
  }
  return out;
}

bool namesSiblingOf(const std::string& text, const std::string& name) {
  if (name.empty()) return false;
  const std::string key = "sibling of " + name;
  for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    const std::size_t end = at + key.size();
    const char next = end < text.size() ? text[end] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(next)) && next != '+' && next != '.' && next != '-' && next != '_') return true;
  }
  return false;
}

}  // namespace ptxmm::validate
